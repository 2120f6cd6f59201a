package com.shop.orders.harness;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Kills what the harness started when the JVM exits, so an aborted run leaves no process behind. */
final class ChildProcesses {

    private static final List<Runnable> KILLERS = new CopyOnWriteArrayList<>();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            for (Runnable killer : KILLERS) {
                try {
                    killer.run();
                } catch (RuntimeException ignored) {
                    // best effort at JVM exit
                }
            }
        }, "harness-children-kill"));
    }

    private ChildProcesses() {
    }

    static void register(Runnable killer) {
        KILLERS.add(killer);
    }
}
