package io.corpora.server.console;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * Debian's chromium driven by Debian's chromedriver, headless, with a fresh profile per session and everything that
 * would reach the network on its own (updates, sync, background fetches) switched off. Nothing is downloaded: the
 * browser and driver paths are given to Selenium, so Selenium Manager never runs.
 *
 * <p>Missing binaries fail the test with the install command; {@code -Dcorpora.browser.optional=true} turns that
 * into a skip for local runs on machines without a browser.
 */
final class HeadlessChromium implements AutoCloseable {

    static final String BROWSER_PROPERTY = "corpora.chromium";
    static final String DRIVER_PROPERTY = "corpora.chromedriver";
    static final String OPTIONAL_PROPERTY = "corpora.browser.optional";

    private static final List<String> FLAGS = List.of("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
            "--window-size=1280,1700", "--lang=en-US");

    private final ChromeDriver driver;
    private final Path profile;

    private HeadlessChromium(ChromeDriver driver, Path profile) {
        this.driver = driver;
        this.profile = profile;
    }

    static HeadlessChromium start() {
        Path browser = Path.of(System.getProperty(BROWSER_PROPERTY, "/usr/bin/chromium"));
        Path chromedriver = Path.of(System.getProperty(DRIVER_PROPERTY, "/usr/bin/chromedriver"));
        boolean present = Files.isExecutable(browser) && Files.isExecutable(chromedriver);
        if (!present) {
            String missing = "the console browser test needs " + (Files.isExecutable(browser) ? "" : browser + " ")
                    + (Files.isExecutable(chromedriver) ? "" : chromedriver + " ")
                    + "(Debian: apt-get install -y chromium chromium-driver; other paths: -D" + BROWSER_PROPERTY + "=… -D" + DRIVER_PROPERTY + "=…)";
            assumeTrue(!Boolean.getBoolean(OPTIONAL_PROPERTY), missing + "; skipped because -D" + OPTIONAL_PROPERTY + "=true");
            throw new IllegalStateException(missing);
        }
        Path profile;
        try {
            profile = Files.createTempDirectory("corpora-chromium-profile-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a fresh chromium profile directory", e);
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(browser.toFile());
        options.addArguments(FLAGS);
        options.addArguments("--user-data-dir=" + profile.toAbsolutePath());
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(chromedriver.toFile())
                .usingAnyFreePort()
                .withTimeout(Duration.ofSeconds(60))
                .build();
        try {
            ChromeDriver driver = new ChromeDriver(service, options);
            driver.manage().timeouts().pageLoadTimeout(Duration.ofSeconds(60)).scriptTimeout(Duration.ofSeconds(30));
            return new HeadlessChromium(driver, profile);
        } catch (RuntimeException e) {
            deleteTree(profile);
            throw new IllegalStateException("chromium " + browser + " with " + chromedriver + " did not start: " + e.getMessage(), e);
        }
    }

    ChromeDriver driver() {
        return driver;
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            deleteTree(profile);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            // A profile left in the temp directory is harmless; the next session uses a new one.
        }
    }
}
