package com.livery.client;

/** Hears a fetch's events as they happen, from the downloading threads: keep it quick, and hand UI work to the main thread. */
@FunctionalInterface
public interface FetchListener {
    void onEvent(FetchEvent event);
}
