package com.livery.client.http;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One daemon thread that ticks the deadlines of every transfer in the process: a blocked read cannot watch its own
 * clock, so the tick aborts the exchange, which ends the read.
 */
final class Watchdog {
    private static final ScheduledThreadPoolExecutor TIMER = new ScheduledThreadPoolExecutor(1, task -> {
        Thread thread = new Thread(task, "livery-transfer-watchdog");
        thread.setDaemon(true);
        return thread;
    });

    static {
        TIMER.setRemoveOnCancelPolicy(true);
    }

    private Watchdog() {}

    static ScheduledFuture<?> every(long millis, Runnable tick) {
        return TIMER.scheduleAtFixedRate(tick, millis, millis, TimeUnit.MILLISECONDS);
    }
}
