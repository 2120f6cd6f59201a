package com.shop.orders.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import com.shop.orders.harness.ServiceProcess;

/** The service's resident set size once a second, labelled with the phase running at the time. */
final class RssSampler implements AutoCloseable {

    record Sample(long atMs, String phase, long rssBytes) {
    }

    private final ServiceProcess service;
    private final long start = System.currentTimeMillis();
    private final List<Sample> samples = new ArrayList<>();
    private final ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "bench-rss");
        t.setDaemon(true);
        return t;
    });
    private volatile String phase = "start";

    RssSampler(ServiceProcess service) {
        this.service = service;
        timer.scheduleAtFixedRate(this::sample, 0, 1, TimeUnit.SECONDS);
    }

    void phase(String name) {
        phase = name;
    }

    private void sample() {
        long rss = service.rssBytes();
        synchronized (samples) {
            samples.add(new Sample(System.currentTimeMillis() - start, phase, rss));
        }
    }

    /** Highest RSS seen while the phase ran (MB), 0 when none was sampled. */
    double peakMb(String phaseName) {
        synchronized (samples) {
            return samples.stream().filter(s -> phaseName == null || s.phase().equals(phaseName))
                    .mapToLong(Sample::rssBytes).max().orElse(0) / 1048576.0;
        }
    }

    /** Highest RSS sampled in [fromMs, toMs) of the wall clock (epoch ms), in MB; NaN when none was sampled. */
    double peakMbBetween(long fromMs, long toMs) {
        synchronized (samples) {
            OptionalLong peak = samples.stream().filter(s -> start + s.atMs() >= fromMs && start + s.atMs() < toMs)
                    .mapToLong(Sample::rssBytes).max();
            return peak.isPresent() ? peak.getAsLong() / 1048576.0 : Double.NaN;
        }
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
