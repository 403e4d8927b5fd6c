package io.corpora.server.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.server.ServerClient;
import io.corpora.server.api.RegressedEvaluations;
import io.corpora.server.api.TenantFixtures;
import io.corpora.testkit.ChatCompletionsStandIn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.Keys;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The admin console in a real headless chromium against the real WAR on a managed Open Liberty: an operator signs in
 * with a development token, creates a tenant (seeing the server's validation message first), uploads a file, watches
 * its ingest job finish, finds it in the search playground with its citation, and sees the audit trail. Every step
 * leaves a PNG in {@code target/console-screenshots/}.
 */
class ConsoleBrowserIT extends DeployedServer {

    static final Path SCREENSHOTS = Path.of("target", "console-screenshots");
    private static final Duration UI = Duration.ofSeconds(30);
    /** The first ingest of a run loads the ONNX embedder; give the job time on a loaded CI machine. */
    private static final Duration INGEST = Duration.ofMinutes(4);
    private static final Set<String> FINISHED = Set.of("SUCCEEDED", "FAILED", "PARTIALLY_FAILED");

    /**
     * A script listing what an automated pass can decide without a rule engine: the page language, the header/nav/main
     * landmarks, one h1 in main, a name for every form control (wrapping label, label[for], aria-label) and button,
     * a caption on every table, alt text on images.
     */
    private static final String ACCESSIBILITY_PROBLEMS = """
            const problems = [];
            if (!document.documentElement.lang) problems.push('html has no lang');
            for (const landmark of ['header', 'nav', 'main']) if (!document.querySelector(landmark)) problems.push('no <' + landmark + '> landmark');
            const headings = document.querySelectorAll('main h1').length;
            if (headings !== 1) problems.push('main has ' + headings + ' h1 elements');
            for (const control of document.querySelectorAll('input:not([type=hidden]), select, textarea')) {
              const named = control.closest('label') || (control.labels && control.labels.length) || control.getAttribute('aria-label')
                  || control.getAttribute('aria-labelledby');
              if (!named) problems.push('unlabelled ' + control.tagName.toLowerCase() + '#' + control.id);
            }
            for (const button of document.querySelectorAll('button')) {
              if (!button.textContent.trim() && !button.getAttribute('aria-label')) problems.push('button without a name');
            }
            for (const table of document.querySelectorAll('table')) if (!table.querySelector('caption')) problems.push('table without caption');
            for (const image of document.querySelectorAll('img')) if (!image.hasAttribute('alt')) problems.push('img without alt');
            return problems;
            """;

    private final ServerClient client = ServerClient.fromBuild();
    private final String base = "http://localhost:" + System.getProperty("corpora.http.port", "9080") + "/";
    private HeadlessChromium browser;
    private ChromeDriver driver;

    /** The artifacts show this run only: screenshots of an earlier run in the same target/ are removed first. */
    @BeforeAll
    static void emptyScreenshotDirectory() throws IOException {
        Files.createDirectories(SCREENSHOTS);
        try (Stream<Path> old = Files.list(SCREENSHOTS)) {
            for (Path png : old.filter(p -> p.getFileName().toString().endsWith(".png")).toList()) {
                Files.delete(png);
            }
        }
    }

    @BeforeEach
    void startBrowser() {
        browser = HeadlessChromium.start();
        driver = browser.driver();
    }

    @AfterEach
    void stopBrowser() {
        if (browser != null) {
            browser.close();
        }
    }

    @Test
    void operatorOnboardsATenantUploadsADocumentAndFindsItInThePlayground() throws IOException {
        String tenant = "console-" + UUID.randomUUID().toString().substring(0, 8);
        String token = client.token("console-operator", tenant,
                List.of(Roles.PLATFORM_ADMIN, Roles.TENANT_ADMIN, Roles.WRITER, Roles.READER), Map.of());

        // Sign in: the decoded claims name the subject, tenant and roles.
        driver.get(base + "console/");
        WebElement tokenField = waitFor(By.id("token"));
        assertEquals("Sign in · Corpora console", driver.getTitle());
        tokenField.sendKeys(token);
        driver.findElement(By.id("sign-in-button")).click();
        waitForText(By.cssSelector("#claims dd[data-claim='tenant']"), tenant);
        assertEquals("console-operator", driver.findElement(By.cssSelector("#claims dd[data-claim='subject']")).getText());
        assertTrue(driver.findElement(By.cssSelector("#claims dd[data-claim='roles']")).getText().contains(Roles.PLATFORM_ADMIN));
        assertTrue(driver.findElement(By.id("identity")).getText().contains("tenant " + tenant));
        screenshot("01-signed-in");

        // Tenants: an invalid document shows the server's schema message with its JSON pointer; the valid one creates the tenant.
        driver.findElement(By.linkText("Tenants")).click();
        WebElement id = waitFor(By.id("new-tenant-id"));
        assertEquals(tenant, id.getAttribute("value"), "the create form starts from the token's tenant");
        WebElement document = driver.findElement(By.id("new-tenant-json"));
        String valid = document.getAttribute("value");
        replaceText(document, "{\"id\": \"" + tenant + "\", \"store\": {\"provider\": \"lucene\"}, \"embedder\": {\"provider\": \"onnx\"},"
                + " \"retrieval\": {\"topK\": 1000}}");
        driver.findElement(By.id("create-tenant")).click();
        WebElement problem = waitFor(By.cssSelector("#create-tenant-result .problem"));
        assertTrue(problem.getText().contains("/retrieval/topK"), problem.getText());
        screenshot("02-tenant-validation-message");
        replaceText(document, valid);
        driver.findElement(By.id("create-tenant")).click();
        waitForText(By.id("tenant-created"), "Created tenant " + tenant);
        // Leftover tenants of earlier runs (the H2 data survives a build without clean) must not push this one off the
        // page: find it by id; the filter stays while the console is open.
        replaceText(waitFor(By.id("tenant-filter")), tenant);
        driver.findElement(By.id("tenant-filter-apply")).click();
        waitForText(By.id("fleet-summary"), "1 tenant(s)");
        waitFor(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "']"));
        assertEquals("ACTIVE", driver.findElement(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "'] td.state")).getText());
        screenshot("03-tenant-created");

        // Documents: upload a file and watch its job through the aria-live progress panel until it finishes.
        Path file = uploadFile();
        driver.findElement(By.linkText("Documents")).click();
        WebElement files = waitFor(By.id("upload-files"));
        files.sendKeys(file.toAbsolutePath().toString());
        driver.findElement(By.id("upload-button")).click();
        // The panel is re-rendered on every poll, so the wait reads the status afresh each time.
        String status = new WebDriverWait(driver, INGEST).withMessage(() -> "the ingest job did not finish within " + INGEST + "; page shows: " + pageText())
                .ignoring(StaleElementReferenceException.class)
                .until(d -> {
                    List<WebElement> panels = d.findElements(By.cssSelector("#job-progress #job"));
                    String shown = panels.isEmpty() ? null : panels.get(0).getAttribute("data-status");
                    return shown != null && FINISHED.contains(shown) ? shown : null;
                });
        assertEquals("SUCCEEDED", status, driver.findElement(By.id("job-progress")).getText());
        assertEquals("100", driver.findElement(By.cssSelector("#job progress")).getAttribute("value"));
        String documentId = file.getFileName().toString();
        waitFor(By.cssSelector("#document-list tr[data-document='" + documentId + "']"));
        driver.findElement(By.id("verify-button")).click();
        waitForText(By.cssSelector("#verify-result dd[data-verify='consistent']"), "yes");
        assertEquals("2", driver.findElement(By.cssSelector("#verify-result dd[data-verify='chunks']")).getText());
        screenshot("04-document-ingested");

        // A document whose id holds a '/' (a URL ingest's host/path, a folder upload's subfolder) and a space: the console
        // shows its chunks and deletes it by its id.
        String nested = "guides/axolotl care.md";
        ServerClient.Response stored = client.post("api/v1/tenants/" + tenant + "/documents", token,
                Map.of("id", nested, "text", "Axolotl care guide: change a fifth of the tank water every week."));
        assertEquals(201, stored.status(), stored.body());
        driver.findElement(By.xpath("//button[normalize-space()='Show']")).click();
        By nestedRow = By.cssSelector("#document-list tr[data-document='" + nested + "']");
        waitFor(nestedRow).findElement(By.cssSelector("button[aria-label='View chunks of document " + nested + "']")).click();
        waitForText(By.id("document-chunks"), "change a fifth of the tank water");
        screenshot("04b-nested-document-chunks");
        driver.findElement(nestedRow).findElement(By.cssSelector("button[aria-label='Delete document " + nested + "']")).click();
        new WebDriverWait(driver, UI).until(ExpectedConditions.alertIsPresent()).accept();
        waitForText(By.id("job-progress"), "Deleted " + nested);
        new WebDriverWait(driver, UI).withMessage("the deleted document is still listed")
                .until(ExpectedConditions.invisibilityOfElementLocated(nestedRow));
        assertEquals(404, client.get("api/v1/tenants/" + tenant + "/document?id=guides%2Faxolotl%20care.md", token).status());

        // Playground: the passage comes back with its citation, score, diagnostics and the context block.
        driver.findElement(By.linkText("Search playground")).click();
        waitFor(By.id("query")).sendKeys("What water temperature do axolotls need?");
        driver.findElement(By.id("search-button")).click();
        WebElement first = waitFor(By.cssSelector("#passages li"));
        String citation = first.findElement(By.className("citation")).getText();
        assertTrue(citation.startsWith("[1] ") && citation.contains(documentId), citation);
        assertTrue(first.getText().contains("16 and 18 degrees"), first.getText());
        assertFalse(first.findElement(By.className("score")).getText().isBlank());
        assertTrue(Integer.parseInt(driver.findElement(By.cssSelector("#diagnostics dd[data-diagnostic='returned']")).getText()) >= 1);
        assertEquals("0", driver.findElement(By.cssSelector("#diagnostics dd[data-diagnostic='rejected']")).getText());
        String context = driver.findElement(By.id("context")).getText();
        assertTrue(context.contains("<retrieved_context") && context.contains("16 and 18 degrees"), context);
        screenshot("05-playground");

        // Ask: with a generator (the chat-completions stand-in: no model runs here) the streamed answer's [1] shows its passage.
        try (ChatCompletionsStandIn standIn = new ChatCompletionsStandIn()) {
            standIn.answer(ChatCompletionsStandIn.events(ChatCompletionsStandIn.streamOf(
                    List.of("Keep the water between 16 and 18 degrees ", "[1", "][4]."), 20)));
            ObjectNode withGenerator = (ObjectNode) client.get("admin/v1/tenants/" + tenant, token).json();
            withGenerator.remove(List.of("activeEmbedder", "created", "updated", "revision"));
            withGenerator.set("generator", ChatCompletionsStandIn.JSON.valueToTree(Map.of("provider", "openai", "config",
                    Map.of("baseUrl", standIn.baseUrl(), "model", "stand-in-model", "maxRetries", 0))));
            ServerClient.Response updated = client.put("admin/v1/tenants/" + tenant, token, withGenerator.toString());
            assertEquals(200, updated.status(), updated.body());
            driver.findElement(By.linkText("Ask")).click();
            waitFor(By.id("question")).sendKeys("What water temperature do axolotls need?");
            driver.findElement(By.id("ask-button")).click();
            waitForText(By.id("answer-meta"), "invented citation(s) removed");
            assertEquals("Keep the water between 16 and 18 degrees [1].", driver.findElement(By.id("answer-text")).getText());
            driver.findElement(By.cssSelector("#answer-text button[data-cite='1']")).click();
            waitForText(By.id("passage-text"), "16 and 18 degrees");
            assertTrue(driver.findElement(By.id("citations")).getText().contains(documentId));
            assertTrue(standIn.only().body().get("messages").toString().contains("16 and 18 degrees"), "the passage reached the prompt");
            screenshot("05b-ask");
        }

        // Audit: the tenant's creation (and the refused attempt) are on record with the token's subject.
        driver.findElement(By.linkText("Audit log")).click();
        waitFor(By.id("audit-tenant")).sendKeys(tenant);
        driver.findElement(By.cssSelector("#view form button[type='submit']")).click();
        waitForText(By.id("audit-results"), "tenant.create");
        String audit = driver.findElement(By.id("audit-results")).getText();
        assertTrue(audit.contains("console-operator") && audit.contains("success"), audit);
        assertTrue(audit.contains("failure") && audit.contains("/retrieval/topK"), "the refused create is audited too: " + audit);
        screenshot("06-audit-log");

        // Plugins: the bundles loaded from the plugins directory with their declared options.
        driver.findElement(By.linkText("Plugins")).click();
        waitForText(By.id("view"), "store: lucene");
        screenshot("07-plugins");

        // Edit the definition, then take the tenant INACTIVE: its data-plane calls are refused and the console says why.
        driver.findElement(By.linkText("Tenants")).click();
        waitFor(By.cssSelector("button[aria-label='Edit tenant " + tenant + "']")).click();
        WebElement definition = waitFor(By.id("edit-tenant-json"));
        String edited = definition.getAttribute("value").replace("\"Tenant " + tenant + "\"", "\"Axolotl keepers\"");
        assertTrue(edited.contains("Axolotl keepers"), edited);
        replaceText(definition, edited);
        driver.findElement(By.xpath("//button[normalize-space()='Save definition']")).click();
        waitForText(By.id("edit-tenant-result"), "Saved " + tenant);
        waitForText(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "']"), "Axolotl keepers");
        // The fleet row: the uploaded document counted, its quota bar, the tenant open, and sorting by chunks.
        WebElement row = driver.findElement(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "']"));
        List<WebElement> cells = row.findElements(By.tagName("td"));
        assertEquals("1", cells.get(3).getText(), "documents");
        assertTrue(Integer.parseInt(cells.get(4).getText()) >= 1, "chunks: " + cells.get(4).getText());
        assertEquals(3, row.findElements(By.cssSelector(".quota progress")).size(), "a bar per quota");
        assertEquals("open", cells.get(9).getText(), "it served calls moments ago: in the working set");
        driver.findElement(By.cssSelector("#tenant-list button[data-sort='chunks']")).click();
        waitFor(By.cssSelector("#tenant-list button[data-sort='chunks'][aria-pressed='true']"));
        waitFor(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "']"));
        screenshot("07b-fleet-sorted-by-chunks");
        new Select(driver.findElement(By.id("tenant-state"))).selectByValue("INACTIVE");
        driver.findElement(By.xpath("//button[normalize-space()='Set state']")).click();
        waitForText(By.id("edit-tenant-result"), "set to INACTIVE");
        waitForText(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "'] td.state"), "INACTIVE");
        screenshot("08-tenant-inactive");
        driver.findElement(By.linkText("Documents")).click();
        WebElement refused = waitFor(By.cssSelector("#document-list .problem"));
        assertTrue(refused.getText().contains("409"), refused.getText());
        screenshot("09-inactive-tenant-refused");

        // Two-step deletion: mark DELETING, then purge with the corpus; each step is confirmed in a dialog.
        driver.findElement(By.linkText("Tenants")).click();
        waitFor(By.cssSelector("button[aria-label='Edit tenant " + tenant + "']")).click();
        waitFor(By.id("mark-tenant-deleting")).click();
        new WebDriverWait(driver, UI).until(ExpectedConditions.alertIsPresent()).accept();
        waitForText(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "'] td.state"), "DELETING");
        waitFor(By.id("purge-tenant")).click();
        new WebDriverWait(driver, UI).until(ExpectedConditions.alertIsPresent()).accept();
        waitForText(By.id("tenant-purged"), "Purged " + tenant + " (1 document(s) removed)");
        new WebDriverWait(driver, UI).withMessage("the purged tenant is still listed")
                .until(ExpectedConditions.invisibilityOfElementLocated(By.cssSelector("#tenant-list tr[data-tenant='" + tenant + "']")));
        screenshot("10-tenant-purged");
    }

    /** A purge the server refuses because the tenant's store will not open shows why, and offers to leave that store's data. */
    @Test
    void aPurgeRefusedForAStoreThatWillNotOpenCanBeDoneLeavingTheStoreData() throws IOException {
        String tenant = "console-unopened-" + UUID.randomUUID().toString().substring(0, 8);
        String token = client.token("console-operator", tenant, List.of(Roles.PLATFORM_ADMIN), Map.of());
        ServerClient.Response created = client.post("admin/v1/tenants", token, TenantFixtures.withUnopenableStore(tenant));
        assertEquals(201, created.status(), created.body());
        assertEquals(202, client.delete("admin/v1/tenants/" + tenant, token).status());

        driver.get(base + "console/");
        waitFor(By.id("token")).sendKeys(token);
        driver.findElement(By.id("sign-in-button")).click();
        waitForText(By.cssSelector("#claims dd[data-claim='tenant']"), tenant);
        driver.findElement(By.linkText("Tenants")).click();
        waitFor(By.cssSelector("button[aria-label='Edit tenant " + tenant + "']")).click();
        waitFor(By.id("check-tenant-plugins")).click();
        WebElement plugins = waitFor(By.cssSelector("#tenant-plugins table"));
        assertTrue(plugins.getText().contains("Not every plugin started") && plugins.getText().contains("127.0.0.1:1"), plugins.getText());
        screenshot("11-tenant-plugins-store-down");
        waitFor(By.id("purge-tenant")).click();
        new WebDriverWait(driver, UI).until(ExpectedConditions.alertIsPresent()).accept();
        WebElement refused = waitFor(By.cssSelector("#edit-tenant-result .problem"));
        assertTrue(refused.getText().contains("503") && refused.getText().contains("stays DELETING"), refused.getText());
        screenshot("11-purge-refused-store-unavailable");
        waitFor(By.id("purge-tenant-leave-store")).click();
        new WebDriverWait(driver, UI).until(ExpectedConditions.alertIsPresent()).accept();
        waitForText(By.id("tenant-purged"), "its store's data was left in place");
        assertEquals(404, client.get("admin/v1/tenants/" + tenant, token).status());
        screenshot("12-purged-leaving-store-data");
    }

    @Test
    void aTenantAdminSeesTheEvaluationHistoryChartAndTheRegressionTheServerFlagged() throws IOException {
        RegressedEvaluations.History history = new RegressedEvaluations(client).create("console-eval-" + UUID.randomUUID().toString().substring(0, 8));
        String first = history.first().get("id").asText();
        String worse = history.worse().get("id").asText();

        driver.get(base + "console/");
        waitFor(By.id("token")).sendKeys(history.adminToken());
        driver.findElement(By.id("sign-in-button")).click();
        waitForText(By.cssSelector("#claims dd[data-claim='tenant']"), history.tenant());
        driver.findElement(By.linkText("Evaluations")).click();
        waitFor(By.cssSelector("#evaluation-chart [data-run='" + worse + "']"));

        // one mark per run, oldest left, at the run's nDCG@10; only the worse run is a regression mark
        List<WebElement> marks = driver.findElements(By.cssSelector("#evaluation-chart .point"));
        assertEquals(List.of(first, worse), marks.stream().map(m -> m.getAttribute("data-run")).toList());
        assertEquals(String.format(java.util.Locale.ROOT, "%.4f", history.worse().get("candidates").get(0).get("ndcg10").asDouble()),
                marks.get(1).getAttribute("data-ndcg"));
        assertEquals("rect", marks.get(1).getTagName());
        assertTrue(marks.get(1).getAttribute("class").contains("regression"), marks.get(1).getAttribute("class"));
        assertFalse(marks.get(0).getAttribute("class").contains("regression"));
        assertTrue(Double.parseDouble(marks.get(0).getAttribute("cy")) < Double.parseDouble(marks.get(1).getAttribute("y")),
                "the better first run is drawn higher");
        assertEquals(1, driver.findElements(By.cssSelector("#evaluation-chart polyline.series")).size());

        String flagged = driver.findElement(By.cssSelector("#evaluation-history tr[data-evaluation='" + worse + "']")).getText();
        assertTrue(flagged.contains("REGRESSION") && flagged.contains("keyword") && flagged.contains(first), flagged);
        assertTrue(flagged.contains("q1 1.0000 → 0.0000") && flagged.contains("q3 1.0000 → 0.0000"), "the queries that got worse: " + flagged);
        String earlier = driver.findElement(By.cssSelector("#evaluation-history tr[data-evaluation='" + first + "']")).getText();
        assertFalse(earlier.contains("REGRESSION"), earlier);
        screenshot("12-evaluation-history");
    }

    @Test
    void withoutATokenTheConsoleAsksForOneAndApiErrorsShowTheirProblem() throws IOException {
        driver.get(base + "console/#/tenants");
        waitForText(By.id("view"), "Sign in with a token first");

        // Keyboard: the first Tab reaches the skip link, which moves focus to the main content without leaving the view.
        new Actions(driver).sendKeys(Keys.TAB).perform();
        assertEquals("Skip to content", driver.switchTo().activeElement().getText());
        driver.switchTo().activeElement().sendKeys(Keys.ENTER);
        assertEquals("main", driver.switchTo().activeElement().getAttribute("id"));
        assertTrue(driver.getCurrentUrl().endsWith("#/tenants"), driver.getCurrentUrl());

        driver.get(base + "console/#/sign-in");
        waitFor(By.id("token")).sendKeys("not-a-token");
        driver.findElement(By.id("sign-in-button")).click();
        waitForText(By.id("sign-in-status"), "a JWT has three dot-separated parts");

        // A reader token is refused by the admin API; the console shows the problem's title and detail.
        driver.findElement(By.id("token")).clear();
        driver.findElement(By.id("token")).sendKeys(client.token("alice", "acme", Roles.READER));
        driver.findElement(By.id("sign-in-button")).click();
        waitForText(By.cssSelector("#claims dd[data-claim='roles']"), Roles.READER);
        driver.findElement(By.linkText("Plugins")).click();
        WebElement problem = waitFor(By.cssSelector("#view .problem[role='alert']"));
        assertTrue(problem.getText().contains("403"), problem.getText());
        screenshot("11-forbidden-problem");
    }

    private Path uploadFile() throws IOException {
        Path dir = Files.createDirectories(Path.of("target", "console-upload"));
        Path file = dir.resolve("axolotl-care-" + UUID.randomUUID().toString().substring(0, 6) + ".md");
        Files.writeString(file, """
                # Axolotl care

                Axolotls are salamanders that keep their larval gills for life.

                ## Water

                Keep the water between 16 and 18 degrees Celsius; above 24 degrees axolotls become stressed and ill.
                Use a filter with a gentle flow and change a fifth of the water every week.
                """, StandardCharsets.UTF_8);
        return file;
    }

    private WebElement waitFor(By locator) {
        return new WebDriverWait(driver, UI).withMessage(() -> "waiting for " + locator + " on " + driver.getCurrentUrl()
                + "; page shows: " + pageText()).until(ExpectedConditions.visibilityOfElementLocated(locator));
    }

    private void waitForText(By locator, String text) {
        new WebDriverWait(driver, UI).withMessage(() -> "waiting for '" + text + "' in " + locator + "; page shows: " + pageText())
                .until(ExpectedConditions.textToBePresentInElementLocated(locator, text));
    }

    /** Replaces a text area's content in one step (sending a long JSON document key by key is slow and adds nothing). */
    private void replaceText(WebElement element, String text) {
        ((JavascriptExecutor) driver).executeScript("arguments[0].value = arguments[1];", element, text);
    }

    private String pageText() {
        try {
            String text = driver.findElement(By.tagName("main")).getText();
            return text.length() > 1500 ? text.substring(0, 1500) + "…" : text;
        } catch (RuntimeException e) {
            return "(unreadable: " + e.getMessage() + ")";
        }
    }

    /** Saves the step's screenshot after checking the page's accessibility basics (see {@link #ACCESSIBILITY_PROBLEMS}). */
    private void screenshot(String name) throws IOException {
        @SuppressWarnings("unchecked")
        List<String> problems = (List<String>) ((JavascriptExecutor) driver).executeScript(ACCESSIBILITY_PROBLEMS);
        assertEquals(List.of(), problems, "accessibility problems at step " + name);
        byte[] png = ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES);
        Files.write(SCREENSHOTS.resolve(name + ".png"), png);
    }
}
