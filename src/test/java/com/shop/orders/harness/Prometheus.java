package com.shop.orders.harness;

/** Reads Prometheus text exposition: sums the samples of one metric name whose labels match. */
public final class Prometheus {

    private Prometheus() {
    }

    public static double sum(String text, String name, String... tagPairs) {
        double sum = 0;
        for (String line : text.split("\n")) {
            if (line.isEmpty() || line.charAt(0) == '#' || !line.startsWith(name)) {
                continue;
            }
            int nameEnd = name.length();
            if (line.length() <= nameEnd) {
                continue;
            }
            char next = line.charAt(nameEnd);
            String labels = "";
            String rest;
            if (next == '{') {
                int close = line.lastIndexOf('}');
                if (close < 0) {
                    continue;
                }
                labels = line.substring(nameEnd + 1, close);
                rest = line.substring(close + 1).trim();
            } else if (next == ' ') {
                rest = line.substring(nameEnd).trim();
            } else {
                continue; // another metric whose name starts with this one
            }
            boolean matches = true;
            for (int i = 0; i < tagPairs.length; i += 2) {
                if (!labels.contains(tagPairs[i] + "=\"" + tagPairs[i + 1] + "\"")) {
                    matches = false;
                    break;
                }
            }
            if (!matches) {
                continue;
            }
            String value = rest.split("\\s+")[0];
            try {
                sum += Double.parseDouble(value);
            } catch (NumberFormatException e) {
                // NaN or a malformed sample: not counted
            }
        }
        return sum;
    }
}
