package com.shop.orders.ops;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression (or a Grafana query with its variables) reads. Not a parser: it
 * removes what cannot be a metric name (strings, label matchers, ranges, grouping label lists, calls and
 * keywords) and keeps the identifiers that remain, which is enough for the expressions of a dashboard and
 * rule file.
 */
final class PromQl {

    private static final Pattern STRINGS = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'(?:\\\\.|[^'\\\\])*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LISTS = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");
    /** An identifier not glued to a number ("5m", "1e3"), a variable ("$job") or a field ("x.y"). */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.$])[a-zA-Z_:][a-zA-Z0-9_:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "inf", "nan", "atan2");
    /** Grafana's label_values(selector, label): only the selector names a metric. */
    private static final Pattern LABEL_VALUES = Pattern.compile("label_values\\((.*),\\s*\\w+\\s*\\)");

    private PromQl() {
    }

    static Set<String> metricNames(String expression) {
        String rest = STRINGS.matcher(expression).replaceAll(" ");
        rest = MATCHERS.matcher(rest).replaceAll(" ");
        rest = RANGES.matcher(rest).replaceAll(" ");
        rest = LABEL_LISTS.matcher(rest).replaceAll(" ");
        Set<String> names = new TreeSet<>();
        Matcher identifier = IDENTIFIER.matcher(rest);
        while (identifier.find()) {
            String name = identifier.group();
            if (!KEYWORDS.contains(name.toLowerCase()) && !isCall(rest, identifier.end())) {
                names.add(name);
            }
        }
        return names;
    }

    /** A Grafana variable query: {@code label_values(selector, label)} or a plain expression. */
    static Set<String> metricNamesOfVariableQuery(String query) {
        Matcher labelValues = LABEL_VALUES.matcher(query.trim());
        return metricNames(labelValues.matches() ? labelValues.group(1) : query);
    }

    private static boolean isCall(String text, int end) {
        for (int i = end; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!Character.isWhitespace(c)) {
                return c == '(';
            }
        }
        return false;
    }
}
