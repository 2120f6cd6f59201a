package com.shop.orders.testsupport;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** Runs tasks at the same time, for race and load tests; results in task order, first failure rethrown. */
public final class Concurrently {

    private Concurrently() {
    }

    public static <T> List<T> run(int threads, List<Callable<T>> tasks) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<T> results = new ArrayList<>();
            for (Future<T> future : pool.invokeAll(tasks)) {
                try {
                    results.add(future.get());
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }

    public static <T> List<T> run(int copies, Callable<T> task) throws Exception {
        return run(copies, Collections.nCopies(copies, task));
    }
}
