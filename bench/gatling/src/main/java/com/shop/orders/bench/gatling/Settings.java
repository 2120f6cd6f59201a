package com.shop.orders.bench.gatling;

/** What the benchmark hands a scenario, as system properties of the Gatling process. */
final class Settings {

    private Settings() {
    }

    static String text(String name) {
        String value = System.getProperty(name);
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("missing -D" + name);
        }
        return value;
    }

    static int number(String name) {
        return Integer.parseInt(text(name));
    }

    static double decimal(String name) {
        return Double.parseDouble(text(name));
    }
}
