package com.shop.orders.ops;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every relative link of the README, docs/ and the deployment's READMEs leads to a file of the repository, and a link
 * into a Markdown file's heading to a heading that is there: a moved section would otherwise leave readers at the
 * top of a page, or nowhere.
 */
class DocsLinksTest {

    @Test
    void everyRelativeLinkLeadsToAFileAndItsAnchorToAHeading() {
        List<Path> files = documents();
        assertTrue(files.contains(Path.of("README.md")) && files.size() > 2, "the documents: " + files);
        List<String> broken = new ArrayList<>();
        files.forEach(file -> broken.addAll(brokenLinks(file)));
        assertEquals(List.of(), broken);
    }

    @Test
    void anchorsAreGitHubs() {
        assertEquals("orderservicedown", Markdown.anchor("OrderServiceDown"));
        assertEquals("stock-buckets-when-to-use-them-what-they-cost",
                Markdown.anchor("Stock buckets: when to use them, what they cost"));
        assertEquals("rocketmq-broker-5x-settings-production-needs",
                Markdown.anchor("RocketMQ broker (5.x) settings production needs"));
        assertEquals("12-soak-soak-only-when-named", Markdown.anchor("12. Soak (`soak`, only when named)"));
        assertEquals("the-collectors-policy", Markdown.anchor("The collector's policy"));
        assertEquals(Set.of("a", "a-1", "b"), Markdown.anchors("# a\n\n## a\n\n```\n# not a heading\n```\n### b\n"));
    }

    @Test
    void sectionsEndAtTheNextHeadingOfTheirLevelOrAbove() {
        String page = "# Page\n## A\ntext\n```\n## in a fence\n```\n### under A\n## B\n# Top\nnot B's\n";
        assertEquals(List.of(new Markdown.Section("A", "text\n```\n## in a fence\n```\n### under A\n"),
                new Markdown.Section("B", "")), Markdown.sections(page, 2));
    }

    /** The check itself finds what it is for: a missing file, a missing heading, in another file and in its own. */
    @Test
    void aLinkToAMissingFileOrHeadingIsReported(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("other.md"), "# Other\n\n## Present\n");
        Path page = dir.resolve("page.md");
        Files.writeString(page, """
                # Page
                [fine](other.md#present) [fine too](#page) [web](https://example.com/missing.md) `[code](nowhere.md)`
                [gone](missing.md) [no heading](other.md#absent) [not here](#absent)
                """);
        List<String> broken = brokenLinks(page);
        assertEquals(3, broken.size(), broken.toString());
        assertTrue(broken.get(0).contains("missing.md"), broken.get(0));
        assertTrue(broken.get(1).contains("other.md#absent"), broken.get(1));
        assertTrue(broken.get(2).contains("#absent"), broken.get(2));
    }

    /** "file:line: target: why" for each relative link of {@code file} that leads nowhere. */
    static List<String> brokenLinks(Path file) {
        List<String> broken = new ArrayList<>();
        for (Markdown.Link link : Markdown.links(Markdown.read(file))) {
            if (link.external()) {
                continue;
            }
            String where = file + ":" + link.line() + ": " + link.target() + ": ";
            Path target = link.path().isEmpty() ? file : file.toAbsolutePath().getParent().resolve(link.path()).normalize();
            if (!Files.exists(target)) {
                broken.add(where + "no such file " + target);
            } else if (link.anchor() != null && target.toString().endsWith(".md")
                    && !Markdown.anchors(Markdown.read(target)).contains(link.anchor())) {
                broken.add(where + "no heading with that anchor in " + target);
            }
        }
        return broken;
    }

    /** README.md, every Markdown file under docs/, deployment/README.md and deployment/kubernetes/README.md. */
    private static List<Path> documents() {
        List<Path> files = new ArrayList<>(List.of(Path.of("README.md"), Manifests.DEPLOYMENT.resolve("README.md"),
                Manifests.KUBERNETES.resolve("README.md")));
        try (Stream<Path> docs = Files.walk(Path.of("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(files::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return files;
    }
}
