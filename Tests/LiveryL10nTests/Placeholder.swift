import XCTest
@testable import LiveryL10n
