import LiveryWorkflow

// The build moved from LiveryPublish to LiveryWorkflow. Channels.swift (`store repair`), being reworked on another
// branch, names it with LiveryPublish imported only; these names keep it building until it imports LiveryWorkflow.
typealias ReleaseBuilder = LiveryWorkflow.ReleaseBuilder
typealias BuildOptions = LiveryWorkflow.BuildOptions
