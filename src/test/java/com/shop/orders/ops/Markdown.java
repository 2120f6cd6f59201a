package com.shop.orders.ops;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The headings and links of a Markdown file, read as GitHub renders them (ATX headings, inline links). */
final class Markdown {

    /** A heading: its level (the number of #) and its text as written. */
    record Heading(int level, String text) {
    }

    /** The text under a heading, up to the next heading of its level or above (fenced blocks included). */
    record Section(String heading, String text) {
    }

    /** An inline link {@code [text](target)} and the line it is on. */
    record Link(String target, int line) {

        /** The part before '#': a path, or empty for a link into the same file. */
        String path() {
            int hash = target.indexOf('#');
            return hash < 0 ? target : target.substring(0, hash);
        }

        /** The part after '#', or null when there is none. */
        String anchor() {
            int hash = target.indexOf('#');
            return hash < 0 ? null : target.substring(hash + 1);
        }

        /** True for http:, https:, mailto: and every other scheme: not a file of this repository. */
        boolean external() {
            return SCHEME.matcher(target).lookingAt();
        }
    }

    private static final Pattern FENCE = Pattern.compile("^ {0,3}(```|~~~)");
    private static final Pattern HEADING = Pattern.compile("^ {0,3}(#{1,6})\\s+(.*?)(?:\\s+#+)?\\s*$");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(.*?)\\1");
    /** Link text may hold brackets of its own only inside code spans, which are removed first. */
    private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]*:");
    /** What GitHub drops from a heading's text to make its anchor: all but letters, digits, '_', '-' and spaces. */
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\p{L}\\p{M}\\p{N}\\p{Pc}\\- ]");

    private Markdown() {
    }

    static String read(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The headings outside fenced code blocks, in order. */
    static List<Heading> headings(String markdown) {
        List<Heading> headings = new ArrayList<>();
        for (String line : linesOutsideFences(markdown).values()) {
            Matcher heading = HEADING.matcher(line);
            if (heading.matches()) {
                headings.add(new Heading(heading.group(1).length(), heading.group(2)));
            }
        }
        return headings;
    }

    /** The sections of the headings of {@code level}, in order. */
    static List<Section> sections(String markdown, int level) {
        List<Section> sections = new ArrayList<>();
        Map<Integer, String> outsideFences = linesOutsideFences(markdown);
        String[] lines = markdown.split("\n", -1);
        String heading = null;
        StringBuilder text = new StringBuilder();
        for (int number = 1; number <= lines.length; number++) {
            Matcher found = outsideFences.containsKey(number) ? HEADING.matcher(lines[number - 1]) : null;
            if (found != null && found.matches() && found.group(1).length() <= level) {
                if (heading != null) {
                    sections.add(new Section(heading, text.toString()));
                }
                heading = found.group(1).length() == level ? found.group(2) : null;
                text.setLength(0);
            } else if (heading != null) {
                text.append(lines[number - 1]).append('\n');
            }
        }
        if (heading != null) {
            sections.add(new Section(heading, text.toString()));
        }
        return sections;
    }

    /** Every anchor GitHub gives the headings: a repeated one gets -1, -2, ... as GitHub numbers them. */
    static Set<String> anchors(String markdown) {
        Set<String> anchors = new LinkedHashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (Heading heading : headings(markdown)) {
            String anchor = anchor(heading.text());
            int count = seen.merge(anchor, 1, Integer::sum);
            anchors.add(count == 1 ? anchor : anchor + "-" + (count - 1));
        }
        return anchors;
    }

    /**
     * GitHub's anchor of a heading: its rendered text (code spans without their backticks, links as their text,
     * no emphasis stars) in lower case, punctuation dropped, spaces turned into hyphens.
     */
    static String anchor(String heading) {
        String rendered = CODE_SPAN.matcher(heading).replaceAll(code -> Matcher.quoteReplacement(code.group(2)));
        rendered = rendered.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").replace("*", "");
        return NOT_IN_ANCHOR.matcher(rendered.strip().toLowerCase(Locale.ROOT)).replaceAll("").replace(' ', '-');
    }

    /** The inline links outside fenced code blocks and code spans, where Markdown shows brackets as they are. */
    static List<Link> links(String markdown) {
        List<Link> links = new ArrayList<>();
        linesOutsideFences(markdown).forEach((number, line) -> {
            Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
            while (link.find()) {
                links.add(new Link(link.group(1), number));
            }
        });
        return links;
    }

    /** The lines outside fenced code blocks, by their 1-based number. */
    private static Map<Integer, String> linesOutsideFences(String markdown) {
        Map<Integer, String> lines = new LinkedHashMap<>();
        String fence = null;
        int number = 0;
        for (String line : markdown.split("\n", -1)) {
            number++;
            Matcher opens = FENCE.matcher(line);
            if (fence == null && opens.find()) {
                fence = opens.group(1);
            } else if (fence != null && line.strip().startsWith(fence)) {
                fence = null;
            } else if (fence == null) {
                lines.put(number, line);
            }
        }
        return lines;
    }
}
