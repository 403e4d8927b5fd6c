package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Hostile inputs over HTTP: each is refused with a clean problem+json (type, title, status, detail) — or, inside an
 * upload job, a 4xx outcome naming the document — and afterwards the server is ready and ingests normally.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class HostileInputIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("hostile");
    private static final String DOCS = "api/v1/tenants/" + T + "/documents";
    private static final long TWO_HUNDRED_MB = 200L * 1024 * 1024;

    @BeforeAll
    static void tenant() {
        FIXTURES.create(T, List.of(), false);
    }

    private static String writer() {
        return CLIENT.token("writer", T, Roles.WRITER);
    }

    private static JsonNode problem(ServerClient.Response response, int status, String typeSuffix) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.contentType().startsWith("application/problem+json"), response.contentType() + " " + response.body());
        JsonNode problem = response.json();
        assertTrue(problem.get("type").asText().startsWith("https://") && problem.get("type").asText().endsWith(typeSuffix), problem.toString());
        assertEquals(status, problem.get("status").asInt(), problem.toString());
        assertTrue(!problem.get("title").asText().isBlank() && !problem.get("detail").asText().isBlank(), problem.toString());
        return problem;
    }

    /** {@code size} bytes of 'a', generated as read: the test never holds the upload in memory. */
    private static InputStream generated(long size) {
        return new InputStream() {
            private long left = size;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0];
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                if (left == 0) {
                    return -1;
                }
                int n = (int) Math.min(length, left);
                Arrays.fill(buffer, offset, offset + n, (byte) 'a');
                left -= n;
                return n;
            }
        };
    }

    private static EarlyAnswerUpload.Answer upload(String boundary, long contentLength, long... fileSizes) throws Exception {
        return EarlyAnswerUpload.post(CLIENT.resolve(DOCS), Map.of("Authorization", "Bearer " + writer(),
                "Content-Type", "multipart/form-data; boundary=" + boundary), multipartOf(boundary, fileSizes), contentLength);
    }

    private static byte[] head(String boundary, String fileName) {
        return ("--" + boundary + "\r\nContent-Disposition: form-data; name=\"file\"; filename=\"" + fileName
                + "\"\r\nContent-Type: text/plain\r\n\r\n").getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] tail(String boundary) {
        return ("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8);
    }

    /** A multipart body of generated text files, one per size: huge.txt, huge-2.txt, … */
    private static InputStream multipartOf(String boundary, long... fileSizes) {
        List<InputStream> pieces = new ArrayList<>();
        for (int i = 0; i < fileSizes.length; i++) {
            pieces.add(new java.io.ByteArrayInputStream(head(boundary, i == 0 ? "huge.txt" : "huge-" + (i + 1) + ".txt")));
            pieces.add(generated(fileSizes[i]));
            pieces.add(new java.io.ByteArrayInputStream("\r\n".getBytes(StandardCharsets.UTF_8)));
        }
        pieces.add(new java.io.ByteArrayInputStream(tail(boundary)));
        return new SequenceInputStream(java.util.Collections.enumeration(pieces));
    }

    @Test
    @Order(1)
    void a200MegabyteUploadWithItsLengthIsRefusedBeforeTheBodyIsRead() throws Exception {
        String boundary = "hostile-declared";
        long length = head(boundary, "huge.txt").length + TWO_HUNDRED_MB + 2 + tail(boundary).length;
        long start = System.nanoTime();
        EarlyAnswerUpload.Answer answer = upload(boundary, length, TWO_HUNDRED_MB);
        JsonNode problem = problem(answer.response(), 413, "request-too-large");
        assertTrue(problem.get("detail").asText().contains(Long.toString(length)), problem.toString());
        System.out.printf("declared 200 MB upload: 413 after %d ms, the client had sent %,d of %,d body bytes%n",
                (System.nanoTime() - start) / 1_000_000, answer.bodyBytesSent(), length);
        assertTrue(answer.bodyBytesSent() < 32L * 1024 * 1024, "the server must answer from the headers; the client sent " + answer.bodyBytesSent());
    }

    @Test
    @Order(2)
    void a200MegabyteChunkedUploadIsCutOffAtTheFileLimit() throws Exception {
        String boundary = "hostile-chunked";
        long start = System.nanoTime();
        EarlyAnswerUpload.Answer answer = upload(boundary, -1, TWO_HUNDRED_MB);
        JsonNode problem = problem(answer.response(), 413, "document-too-large");
        assertTrue(problem.get("detail").asText().contains("huge.txt") && problem.get("detail").asText().contains("52428800"), problem.toString());
        System.out.printf("chunked 200 MB upload: 413 after %d ms, the client had sent %,d body bytes%n",
                (System.nanoTime() - start) / 1_000_000, answer.bodyBytesSent());
        // The reader stops at the limit (MultipartFormReaderTest); what the client manages to send before it reads the answer
        // also depends on socket buffers and on the container draining the rest (56-97 MB seen), so only "before the end" is asserted.
        assertTrue(answer.bodyBytesSent() < TWO_HUNDRED_MB, "the answer must come before the whole body is sent; the client sent " + answer.bodyBytesSent());
        assertEquals(200, CLIENT.get("health/ready", null).status());
    }

    @Test
    @Order(2)
    void aChunkedUploadOfManyFilesUnderTheFileLimitIsCutOffAtTheRequestLimit() throws Exception {
        long fortyMb = 40L * 1024 * 1024;
        EarlyAnswerUpload.Answer answer = upload("hostile-many", -1, fortyMb, fortyMb, fortyMb, fortyMb, fortyMb);
        JsonNode problem = problem(answer.response(), 413, "request-too-large");
        assertTrue(problem.get("detail").asText().contains("104857600"), problem.toString());
        System.out.printf("chunked 5 x 40 MB upload: 413, the client had sent %,d body bytes%n", answer.bodyBytesSent());
        assertTrue(answer.bodyBytesSent() < 5 * fortyMb, "the answer must come before the whole body is sent; the client sent " + answer.bodyBytesSent());
    }

    @Test
    @Order(3)
    void aTenMegabyteSingleLineJsonBodyIsRefused() {
        String text = "x".repeat(10 * 1024 * 1024);
        ServerClient.Response response = CLIENT.post(DOCS, writer(), "{\"id\":\"long-line\",\"text\":\"" + text + "\"}");
        JsonNode problem = problem(response, 413, "request-too-large");
        assertTrue(problem.get("detail").asText().contains("multipart"), problem.toString());
        assertEquals(404, CLIENT.get(DOCS + "/long-line", writer()).status());
    }

    @Test
    @Order(4)
    void invalidUtf8IsABadRequestOrAFailedDocumentNeverStoredText() {
        byte[] json = "{\"id\":\"bad-utf8\",\"text\":\"caf\u0000\"}".getBytes(StandardCharsets.UTF_8);
        json[json.length - 3] = (byte) 0xC3; // a lead byte followed by '"': not UTF-8
        HttpRequest request = HttpRequest.newBuilder(CLIENT.resolve(DOCS)).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + writer()).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(json)).build();
        problem(CLIENT.send(request), 400, "");
        assertEquals(404, CLIENT.get(DOCS + "/bad-utf8", writer()).status());

        ServerClient.Response upload = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "latin1.txt", "text/plain; charset=utf-8", new byte[] {'n', 'a', (byte) 0xEF, 'v', 'e'})));
        JsonNode job = FIXTURES.awaitJob(upload.location(), writer());
        JsonNode outcome = job.get("outcomes").get(0);
        assertEquals(422, outcome.get("status").asInt(), job.toString());
        assertTrue(outcome.get("error").asText().contains("latin1.txt"), job.toString());
    }

    @Test
    @Order(5)
    void aDecompressionBombPdfFailsAloneWith413() throws IOException {
        byte[] bomb = flateBombPdf(256L * 1024 * 1024);
        System.out.printf("decompression bomb: %,d bytes of PDF expanding to %,d%n", bomb.length, 256L * 1024 * 1024);
        ServerClient.Response upload = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "bomb.pdf", "application/pdf", bomb),
                new ServerClient.Part("file", "fine.txt", "text/plain", "Ordinary text survives next to a bomb.".getBytes(StandardCharsets.UTF_8))));
        assertEquals(202, upload.status(), upload.body());
        JsonNode job = FIXTURES.awaitJob(upload.location(), writer());
        assertEquals("PARTIALLY_FAILED", job.get("status").asText(), job.toString());
        for (JsonNode outcome : job.get("outcomes")) {
            if (outcome.get("documentId").asText().equals("bomb.pdf")) {
                assertEquals(413, outcome.get("status").asInt(), job.toString());
                assertTrue(outcome.get("error").asText().contains("decompression bomb"), job.toString());
            } else {
                assertEquals("stored", outcome.get("result").asText(), job.toString());
            }
        }
    }

    @Test
    @Order(6)
    void pathTraversalInFileNamesIsRefusedWhole() {
        for (String name : List.of("../../etc/passwd", "/etc/passwd", "docs/../../../etc/shadow", "..\\..\\boot.ini",
                "C:\\Windows\\win.ini", "\\\\server\\share\\x.txt", "notes\u0000.txt")) {
            ServerClient.Response response = CLIENT.postMultipart(DOCS, writer(), List.of(
                    new ServerClient.Part("file", "ok.txt", "text/plain", "harmless".getBytes(StandardCharsets.UTF_8)),
                    new ServerClient.Part("file", name, "text/plain", "root:x:0:0".getBytes(StandardCharsets.UTF_8))));
            problem(response, 400, "invalid-file-name");
        }
        JsonNode listed = CLIENT.get(DOCS + "?limit=500", writer()).json().get("documents");
        List<String> ids = new ArrayList<>();
        listed.forEach(d -> ids.add(d.get("id").asText()));
        assertTrue(ids.stream().noneMatch(id -> id.contains("passwd") || id.contains("shadow") || id.equals("ok.txt")), ids.toString());
    }

    @Test
    @Order(6)
    void anUploadsMetadataFieldIsCheckedAsAJsonBodyIs() {
        // 1,000 levels: within the JSON reader's own limit, and deep enough to overflow a request thread's stack
        // while the server's code is still interpreted (seen as an empty 500 on a fresh server).
        byte[] deep = ("{\"k\": " + "[".repeat(999) + "]".repeat(999) + "}").getBytes(StandardCharsets.UTF_8);
        byte[] notUtf8 = {'{', '"', 'k', '"', ':', '"', (byte) 0xC3, '"', '}'};
        for (Map.Entry<String, byte[]> refused : Map.of("json-too-deep", deep, "invalid-utf8", notUtf8).entrySet()) {
            ServerClient.Response response = CLIENT.postMultipart(DOCS, writer(), List.of(
                    new ServerClient.Part("metadata", null, "application/json", refused.getValue()),
                    new ServerClient.Part("file", "with-metadata.txt", "text/plain", "harmless".getBytes(StandardCharsets.UTF_8))));
            JsonNode problem = problem(response, 400, refused.getKey());
            assertTrue(problem.get("detail").asText().startsWith("the 'metadata' field"), problem.toString());
        }
        assertEquals(404, CLIENT.get(DOCS + "/with-metadata.txt", writer()).status(), "nothing of a refused upload is stored");
    }

    @Test
    @Order(7)
    void afterwardsTheServerIsReadyAndIngestsNormally() {
        ServerClient.Response ready = CLIENT.get("health/ready", null);
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().get("status").asText(), ready.body());
        ServerClient.Response created = CLIENT.post(DOCS, writer(), Map.of("id", "calm", "text", "Lighthouses guide ships past the reef at night."));
        assertEquals(201, created.status(), created.body());
        JsonNode hits = CLIENT.post("api/v1/tenants/" + T + "/retrieve", CLIENT.token("reader", T, Roles.READER),
                Map.of("query", "lighthouse reef ships", "mode", "keyword")).json();
        assertTrue(hits.get("passages").get(0).get("text").asText().contains("Lighthouses guide ships"), hits.toString());
    }

    /**
     * A one-page PDF whose content stream is {@code expanded} bytes of spaces, FlateDecode-compressed (about 1000:1),
     * written by hand with a correct cross-reference table.
     */
    static byte[] flateBombPdf(long expanded) throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        byte[] spaces = new byte[64 * 1024];
        Arrays.fill(spaces, (byte) ' ');
        try (DeflaterOutputStream deflate = new DeflaterOutputStream(compressed, new Deflater(Deflater.BEST_COMPRESSION), 64 * 1024)) {
            for (long written = 0; written < expanded; written += spaces.length) {
                deflate.write(spaces);
            }
        }
        byte[] stream = compressed.toByteArray();
        ByteArrayOutputStream pdf = new ByteArrayOutputStream();
        List<Integer> offsets = new ArrayList<>();
        write(pdf, "%PDF-1.4\n");
        String[] objects = {
                "<< /Type /Catalog /Pages 2 0 R >>",
                "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
                "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>"};
        for (int i = 0; i < objects.length; i++) {
            offsets.add(pdf.size());
            write(pdf, (i + 1) + " 0 obj\n" + objects[i] + "\nendobj\n");
        }
        offsets.add(pdf.size());
        write(pdf, "4 0 obj\n<< /Length " + stream.length + " /Filter /FlateDecode >>\nstream\n");
        pdf.write(stream);
        write(pdf, "\nendstream\nendobj\n");
        int xref = pdf.size();
        StringBuilder table = new StringBuilder("xref\n0 5\n0000000000 65535 f \n");
        offsets.forEach(o -> table.append(String.format("%010d 00000 n \n", o)));
        table.append("trailer\n<< /Size 5 /Root 1 0 R >>\nstartxref\n").append(xref).append("\n%%EOF\n");
        write(pdf, table.toString());
        return pdf.toByteArray();
    }

    private static void write(ByteArrayOutputStream out, String text) {
        out.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
    }
}
