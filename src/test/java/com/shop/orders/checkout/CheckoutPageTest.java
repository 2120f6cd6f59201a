package com.shop.orders.checkout;

import static com.shop.orders.testsupport.Payments.pay;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

import com.shop.orders.testsupport.TestDb;

import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;

/**
 * The checkout page in a real (headless) browser: Debian's chromium and chromedriver, never a download.
 * One member places three orders and sees each decided on the page without reloading it: paid through the
 * Alipay sandbox, expired (pay timeout 6 s in tests), cancelled. Screenshots go to target/screenshots/.
 */
@QuarkusTest
class CheckoutPageTest {

    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    private static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    private static final Path SCREENSHOTS = Path.of("target", "screenshots");
    private static final Duration SOON = Duration.ofSeconds(10);
    /** The 6 s pay window plus the broker's check-back (see ExpiryTest). */
    private static final Duration EXPIRY = Duration.ofSeconds(20);
    /** How often a wait looks at the page: Selenium's default of 500 ms adds a quarter second to every wait. */
    private static final Duration POLL = Duration.ofMillis(50);

    @TestHTTPResource("/checkout/")
    URL checkout;

    private WebDriver browser;
    private Path profile;

    /** Only the tests that drive the page start a browser. */
    private void startBrowser() throws IOException {
        if (!Files.isExecutable(CHROMIUM) || !Files.isExecutable(CHROMEDRIVER)) {
            fail("The browser test needs Debian's chromium and chromedriver at " + CHROMIUM + " and " + CHROMEDRIVER
                    + ": apt-get install -y chromium chromium-driver (.ci/services.sh installs them when missing)");
        }
        profile = Files.createTempDirectory("checkout-chromium-");
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                "--user-data-dir=" + profile, "--window-size=900,1100");
        ChromeDriverService driver = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        browser = new ChromeDriver(driver, options);
    }

    @AfterEach
    void stopBrowser() throws IOException {
        if (browser != null) {
            browser.quit();
        }
        if (profile != null) {
            try (Stream<Path> files = Files.walk(profile)) {
                files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
            }
        }
    }

    @Test
    void thePageRunsOnlyItsOwnCode() {
        given().get(checkout.toString()).then().statusCode(200)
                .header("Content-Security-Policy", containsString("script-src 'self'"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Referrer-Policy", "no-referrer");
    }

    @Test
    void aMemberPaysOneOrderLetsOneExpireAndCancelsOne() throws IOException {
        long sku = TestDb.newSku(10, "12.50");
        long scarce = TestDb.newSku(1, "99.00");
        startBrowser();
        browser.get(checkout.toString());
        signInAsTestMember();
        markThePage();

        // An order the shop cannot fill: the problem is shown, and nothing is reserved.
        order(scarce, 2);
        WebElement problem = waitFor(By.id("problem"), SOON);
        assertTrue(problem.getText().contains("Insufficient stock"), problem.getText());
        assertTrue(problem.getText().contains("HTTP 409"), problem.getText());
        assertTrue(problem.getText().contains("skuId: " + scarce), problem.getText());
        screenshot("0-insufficient-stock");
        assertEquals(new TestDb.SkuRow(1, 0), TestDb.sku(scarce));
        browser.findElement(By.id("problem-dismiss")).click();

        // Paid through the Alipay sandbox: PAID arrives on the page by itself.
        order(sku, 2);
        String qrCode = awaitQrCode();
        pay(qrCode);
        awaitStatus("PAID", SOON);
        assertTrue(text("outcome").contains("Paid"), text("outcome"));
        screenshot("1-paid");

        // Not paid: closed at its deadline.
        newOrder();
        order(sku, 1);
        awaitQrCode();
        assertTrue(text("countdown").contains("left to pay"), text("countdown"));
        screenshot("2-waiting-for-payment");
        awaitStatus("CLOSED", EXPIRY);
        assertEquals("(expired)", text("close-reason"));
        screenshot("2-expired");

        // Cancelled by the member.
        newOrder();
        order(sku, 1);
        awaitQrCode();
        browser.findElement(By.id("cancel-order")).click();
        awaitStatus("CLOSED", SOON);
        assertEquals("(member cancelled)", text("close-reason"));
        screenshot("3-cancelled");

        assertEquals(Boolean.TRUE, ((JavascriptExecutor) browser).executeScript("return window.notReloaded === true"),
                "every status arrived without a reload");
        assertEquals(new TestDb.SkuRow(8, 0), TestDb.sku(sku));
        TestDb.assertStockInvariant(sku, 10);
    }

    /** Both wallets offered: the buyer switches to WeChat Pay, its code is shown, and paying it pays the order. */
    @Test
    void aBuyerPicksWechatPayAndPaysWithIt() throws IOException {
        long sku = TestDb.newSku(5, "6.00");
        startBrowser();
        browser.get(checkout.toString());
        signInAsTestMember();

        order(sku, 1);
        String alipayCode = awaitQrCode();
        assertTrue(browser.findElement(By.id("wallet-alipay")).isSelected(), "Alipay is the default");
        browser.findElement(By.id("wallet-wechat")).click();
        waitUpTo(SOON).until(b -> text("qr-code").startsWith("weixin://wxpay/bizpayurl?pr="));
        String wechatCode = text("qr-code");
        assertTrue(!wechatCode.equals(alipayCode));
        assertTrue(browser.findElement(By.id("sandbox-link")).getAttribute("href").endsWith("/sandbox/wechat"),
                browser.findElement(By.id("sandbox-link")).getAttribute("href"));
        assertEquals("WeChat Pay QR code", browser.findElement(By.id("qr-image")).getAttribute("alt"));
        // Pays at once: the order has six seconds in tests.
        given().contentType("application/json").body(java.util.Map.of("qrCode", wechatCode))
                .post("/sandbox/wechat/buyer/pay").then().statusCode(200);
        awaitStatus("PAID", SOON);
        assertTrue(text("outcome").contains("Paid"), text("outcome"));
        screenshot("4-paid-with-wechat-pay");
    }

    private void signInAsTestMember() {
        WebElement memberId = waitFor(By.id("dev-member-id"), SOON);
        memberId.clear();
        memberId.sendKeys("browser-" + System.nanoTime() % 1_000_000);
        browser.findElement(By.id("dev-sign-in")).click();
        waitFor(By.id("catalog-section"), SOON);
    }

    /** A marker that a reload would wipe out. */
    private void markThePage() {
        ((JavascriptExecutor) browser).executeScript("window.notReloaded = true");
    }

    /**
     * "New order": the page shows the catalog it has, then renders it again from the API. Its rows are marked first,
     * so that {@link #order} waits for the new ones instead of filling in a row about to be replaced.
     */
    private void newOrder() {
        ((JavascriptExecutor) browser).executeScript(
                "document.querySelectorAll('#catalog tbody tr').forEach(r => r.dataset.shown = 'before')");
        browser.findElement(By.id("new-order")).click();
    }

    /** Only this line in the cart, then "Place order". */
    private void order(long skuId, int quantity) {
        WebElement row = waitFor(By.cssSelector("#catalog tr[data-sku-id='" + skuId + "']:not([data-shown])"), SOON);
        ((JavascriptExecutor) browser).executeScript("document.querySelectorAll('#catalog .qty').forEach(q => q.value = 0)");
        WebElement field = row.findElement(By.className("qty"));
        field.clear();
        field.sendKeys(Integer.toString(quantity));
        WebElement place = browser.findElement(By.id("place-order"));
        waitUpTo(SOON).until(ExpectedConditions.elementToBeClickable(place));
        place.click();
    }

    private String awaitQrCode() {
        awaitStatus("PENDING_PAYMENT", SOON);
        WebElement image = waitFor(By.id("qr-image"), SOON);
        waitUpTo(SOON).until(b -> (Boolean) ((JavascriptExecutor) b)
                .executeScript("return arguments[0].complete && arguments[0].naturalWidth > 0", image));
        waitFor(By.id("live"), SOON);
        return text("qr-code");
    }

    private void awaitStatus(String status, Duration atMost) {
        waitUpTo(atMost).until(ExpectedConditions.attributeToBe(By.id("order-status"),
                "data-status", status));
    }

    private WebDriverWait waitUpTo(Duration atMost) {
        return new WebDriverWait(browser, atMost, POLL);
    }

    private WebElement waitFor(By locator, Duration atMost) {
        return waitUpTo(atMost).until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    private String text(String id) {
        return browser.findElement(By.id(id)).getText();
    }

    private void screenshot(String name) throws IOException {
        Files.createDirectories(SCREENSHOTS);
        Path shot = ((TakesScreenshot) browser).getScreenshotAs(OutputType.FILE).toPath();
        Files.copy(shot, SCREENSHOTS.resolve(name + ".png"), StandardCopyOption.REPLACE_EXISTING);
    }
}
