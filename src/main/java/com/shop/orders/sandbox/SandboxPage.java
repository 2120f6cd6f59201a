package com.shop.orders.sandbox;

/**
 * What both wallets' sandbox pages share: the head, the link to the other wallet's trades, a field to paste a code
 * into as the buyer's phone would scan it, and the script of the scan and pay buttons (both buyer APIs take
 * {"qrCode": …}).
 */
public final class SandboxPage {

    public static final String ALIPAY = "/sandbox/alipay";
    public static final String WECHAT = "/sandbox/wechat";

    private SandboxPage() {
    }

    /**
     * The page up to its own content: title, style, heading, the link to the other sandbox and the paste field.
     *
     * @param root this sandbox's path, whose /buyer and /faults the buttons call
     */
    public static StringBuilder start(String title, String root, String otherRoot, String otherLabel,
            String codeExample) {
        return new StringBuilder("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>").append(title)
                .append("</title>\n<style>body{font-family:sans-serif}td,th{padding:4px 8px;border-bottom:1px solid #ddd}")
                .append("</style>\n</head><body><h1>").append(title).append("</h1>\n<p><a href=\"").append(otherRoot)
                .append("\">").append(otherLabel).append("</a> &middot; <a href=\"\">refresh</a></p>\n")
                .append("<p><label>Scan a code: <input id=\"code\" size=\"60\" placeholder=\"").append(codeExample)
                .append("\"></label> <button onclick=\"act('scan', document.getElementById('code').value)\">scan")
                .append("</button> <button onclick=\"act('pay', document.getElementById('code').value)\">pay</button>")
                .append("</p>\n").append(script(root));
    }

    /** The buyer's buttons for one trade's code. */
    public static String buttons(String code) {
        String escaped = escape(code);
        return "<button onclick=\"act('scan','" + escaped + "')\">scan</button> "
                + "<button onclick=\"act('pay','" + escaped + "')\">pay</button>";
    }

    /** The faults line: the knobs as they are, and a button that resets them. */
    public static String faults(Object settings) {
        return "<p>Faults: <code>" + escape(String.valueOf(settings))
                + "</code> <button onclick=\"resetFaults()\">reset faults</button></p>\n";
    }

    /** HTML text and attribute escaping. */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                .replace("\"", "&quot;").replace("'", "&#39;");
    }

    private static String script(String root) {
        return """
                <script>
                async function act(action, qrCode) {
                  const answer = await fetch('ROOT/buyer/' + action, {method: 'POST',
                      headers: {'Content-Type': 'application/json'}, body: JSON.stringify({qrCode: qrCode.trim()})});
                  if (!answer.ok) { alert(action + ': ' + ((await answer.json()).error || answer.status)); }
                  location.reload();
                }
                async function resetFaults() { await fetch('ROOT/faults', {method: 'DELETE'}); location.reload(); }
                </script>
                """.replace("ROOT", root);
    }
}
