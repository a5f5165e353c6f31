//! `repochart map`: the drawings as DOT and Mermaid on the fixtures (exact snapshots), and
//! the HTML page as a person sees it, in headless Chromium where one is installed (`.ci/run`
//! installs Debian's): a screenshot is taken, the page's own search finds a symbol, and no
//! request leaves the page.

use std::path::{Path, PathBuf};
use std::process::Command;

use expect_test::expect_file;
use repochart::index::{index, Options};
use repochart::tools::{Atlas, MapFormat};

use crate::util::temp_copy;

fn map(root: &Path, format: MapFormat) -> String {
    index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    Atlas::new(&root.canonicalize().unwrap()).map(format, Some("https://git.example/shop/blob/{commit}/{path}#L{line}")).unwrap()
}

#[test]
fn dot_and_mermaid_of_units_and_modules() {
    let mut out = String::new();
    for fixture in ["maven-multi", "spring-shop", "java-shop", "rust-web"] {
        let tmp = temp_copy(fixture);
        for (name, format) in [("dot", MapFormat::Dot), ("mermaid", MapFormat::Mermaid)] {
            out.push_str(&format!("### {fixture} {name}\n{}\n", map(tmp.path(), format)));
        }
    }
    expect_file!["snapshots/map.txt"].assert_eq(&out);
}

/// Debian's `chromium` (or `CHROMIUM`), if installed.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].iter().map(PathBuf::from).find(|p| p.exists())
}

fn headless(browser: &Path, profile: &Path, args: &[&str]) -> String {
    let out = Command::new(browser)
        .args(["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking"])
        .args(["--disable-component-update", "--disable-sync", "--hide-scrollbars"])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "chromium {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn the_page_is_self_contained_searchable_and_renders() {
    let tmp = temp_copy("spring-shop");
    let page = map(tmp.path(), MapFormat::Html);
    // Nothing to fetch: one document, its style and script inline, a policy that allows no
    // request at all; links are navigations the reader chooses.
    assert!(page.contains("content=\"default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\""));
    for resource in ["<script src", "<link", "<img", "<iframe", "@import"] {
        assert!(!page.contains(resource), "the page loads {resource}");
    }
    // `url(#marker)` names a part of the page itself; any other `url(` would fetch.
    assert!(page.match_indices("url(").all(|(i, _)| page[i + 4..].starts_with('#')), "the page loads a url(...)");
    assert!(page.contains("data-key=\"order-service\""), "the units are drawn");
    // A legend for the edge styles, and the repository's external systems.
    for style in ["part of a cycle", "used, not declared in the manifest", "declared, not used"] {
        assert!(page.contains(style), "the legend names {style:?}");
    }
    assert!(
        page.contains("<h3>external systems (4)</h3><ul class=\"external\"><li>MySQL (database)  default=localhost:3306/shop"),
        "external systems"
    );
    let file = tmp.path().join("map.html");
    std::fs::write(&file, &page).unwrap();

    let Some(browser) = chromium() else {
        println!("SKIPPED in part: no chromium (apt install chromium, or set CHROMIUM): the page was not rendered");
        return;
    };
    let profile = tempfile::tempdir().unwrap();
    let url = format!("file://{}", file.display());
    // The page's own search, from the address (`#q=`), as typing runs it.
    let dom = headless(&browser, profile.path(), &["--dump-dom", &format!("{url}#q=OrderService&open=order-service")]);
    assert!(dom.contains("symbols match \"orderservice\""), "{}", &dom[dom.len().saturating_sub(2000)..]);
    assert!(dom.contains("interface com.shop.order.service.OrderService <a href=\"https://git.example/shop/blob//order-service/src/main/java/com/shop/order/service/OrderService.java#L3\">"), "{}", &dom[dom.len().saturating_sub(3000)..]);
    // The unit opened: its modules drawn under the units, its entry points and external
    // systems listed.
    assert!(dom.contains("entry points (") && dom.contains("http com.shop.order.web.OrderController"), "{dom}");
    assert!(dom.contains("<div id=\"modules\"><h3>modules of order-service</h3><svg"), "{dom}");
    assert!(dom.contains("<h3>external systems</h3><ul><li>MySQL (database)"), "{dom}");
    // Places in the rows are links too.
    assert!(
        dom.contains("<a href=\"https://git.example/shop/blob//order-service/src/main/java/com/shop/order/web/OrderController.java#L9\">order-service/src/main/java/com/shop/order/web/OrderController.java:9-47</a>"),
        "{dom}"
    );
    assert!(dom.contains("data-requests=\"0\""), "requests were made: {}", &dom[..dom.find("<header").unwrap_or(0).min(500)]);
    let shot = tmp.path().join("map.png");
    headless(&browser, profile.path(), &[&format!("--screenshot={}", shot.display()), "--window-size=1400,900", &url]);
    let png = std::fs::read(&shot).unwrap();
    assert!(png.starts_with(b"\x89PNG") && png.len() > 10_000, "a screenshot of {} bytes", png.len());
    if let Some(dir) = std::env::var_os("REPOCHART_SCREENSHOTS") {
        std::fs::copy(&shot, Path::new(&dir).join("spring-shop-map.png")).unwrap();
    }
}

/// `[map] link` in `.repochart.toml` gives the page its links (as `--link` does), so that
/// `serve --http`'s page links to the repository's web view too.
#[test]
fn the_link_template_comes_from_the_configuration() {
    let tmp = temp_copy("java-shop");
    let root = tmp.path();
    std::fs::write(root.join(".repochart.toml"), "[map]\nlink = \"https://git.example/acme/shop/blob/main/{path}#L{line}\"\n").unwrap();
    index(root, &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let page = Atlas::new(&root.canonicalize().unwrap()).map(MapFormat::Html, None).unwrap();
    assert!(page.contains(r#""link":"https://git.example/acme/shop/blob/main/{path}#L{line}""#), "the page's link template");
    // Without it: `file://` links under the root.
    let plain = temp_copy("java-shop");
    index(plain.path(), &Options { threads: 2, ..Options::default() }, &|_, _| {}).unwrap();
    let root = plain.path().canonicalize().unwrap();
    let page = Atlas::new(&root).map(MapFormat::Html, None).unwrap();
    assert!(page.contains(&format!(r#""link":"file://{}/{{path}}""#, root.display())), "file:// links");
}
