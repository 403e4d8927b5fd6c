package io.corpora.loader.html;

import org.jsoup.nodes.Document;
import org.jsoup.nodes.Element;
import org.jsoup.select.Elements;

/**
 * Finds a page's main content and strips what is not content. The root is {@code <main>} (or
 * {@code role="main"}), else a single {@code <article>}, else the body. Removed inside it: scripts, styles,
 * navigation, asides, forms and embedded objects, hidden elements, and page-level {@code <header>}/{@code <footer>}
 * banners (a header inside an article, section or main is the content's own header and stays).
 */
final class MainContent {

    private static final String NOT_CONTENT = String.join(", ",
            "script", "style", "noscript", "template", "nav", "aside", "form", "button", "input", "select", "textarea",
            "iframe", "frame", "frameset", "object", "embed", "svg", "canvas", "video", "audio", "dialog", "link", "meta",
            "[hidden]", "[aria-hidden=true]", "[style~=(?i)display:\\s*none]");

    private MainContent() {}

    static Element of(Document document) {
        Element root = document.selectFirst("main, [role=main]");
        if (root == null) {
            Elements articles = document.select("article");
            root = articles.size() == 1 ? articles.first() : document.body();
        }
        if (root == null) {
            root = document;
        }
        root.select(NOT_CONTENT).remove();
        for (Element banner : root.select("header, footer")) {
            if (!insideSectioningContent(banner, root)) {
                banner.remove();
            }
        }
        return root;
    }

    private static boolean insideSectioningContent(Element element, Element root) {
        for (Element parent = element.parent(); parent != null; parent = parent.parent()) {
            String name = parent.normalName();
            if (name.equals("article") || name.equals("section") || name.equals("main") || "main".equals(parent.attr("role"))) {
                return true;
            }
            if (parent == root) {
                return false;
            }
        }
        return false;
    }
}
