package io.corpora.loader.pdf;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.zip.Deflater;
import java.util.zip.DeflaterOutputStream;
import org.apache.pdfbox.cos.COSArray;
import org.apache.pdfbox.cos.COSName;
import org.apache.pdfbox.cos.COSStream;
import org.apache.pdfbox.pdmodel.PDDocument;
import org.apache.pdfbox.pdmodel.PDPage;
import org.apache.pdfbox.pdmodel.PDPageContentStream;
import org.apache.pdfbox.pdmodel.PDResources;
import org.apache.pdfbox.pdmodel.encryption.AccessPermission;
import org.apache.pdfbox.pdmodel.encryption.StandardProtectionPolicy;
import org.apache.pdfbox.pdmodel.font.PDType1Font;
import org.apache.pdfbox.pdmodel.font.Standard14Fonts;

/** PDFs built with PDFBox itself for the tests: no downloaded fixtures. */
final class TestPdfs {

    private TestPdfs() {}

    /** A PDF with one page per text; a null text makes a page without any content stream. */
    static byte[] withPages(String title, String... pageTexts) {
        try (PDDocument document = new PDDocument()) {
            for (String text : pageTexts) {
                PDPage page = new PDPage();
                document.addPage(page);
                if (text != null) {
                    writeText(document, page, text);
                }
            }
            if (title != null) {
                document.getDocumentInformation().setTitle(title);
                document.getDocumentInformation().setAuthor("Test Author");
            }
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A PDF with {@code pages} pages whose page tree declares only one ({@code /Count 1}). */
    static byte[] understatedPageCount(int pages) {
        try (PDDocument document = new PDDocument()) {
            for (int i = 1; i <= pages; i++) {
                PDPage page = new PDPage();
                document.addPage(page);
                writeText(document, page, "page " + i);
            }
            document.getPages().getCOSObject().setInt(COSName.COUNT, 1);
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A one-page PDF encrypted with the given passwords and permissions (AES-128, JDK crypto). */
    static byte[] encrypted(String ownerPassword, String userPassword, boolean allowExtraction) {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            writeText(document, page, "Confidential text");
            AccessPermission permission = new AccessPermission();
            permission.setCanExtractContent(allowExtraction);
            StandardProtectionPolicy policy = new StandardProtectionPolicy(ownerPassword, userPassword, permission);
            policy.setEncryptionKeyLength(128);
            document.protect(policy);
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A one-page PDF whose page content is {@code expandedBytes} of spaces followed by real text, stored
     * Flate-compressed {@code layers} times (a nested chain [FlateDecode FlateDecode …] compresses far further).
     */
    static byte[] compressionBomb(long expandedBytes, int layers) {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            PDResources resources = new PDResources();
            COSName font = resources.add(new PDType1Font(Standard14Fonts.FontName.HELVETICA));
            page.setResources(resources);
            byte[] text = ("BT /" + font.getName() + " 12 Tf 72 700 Td (After the padding) Tj ET\n").getBytes();
            byte[] encoded = deflateLayers(expandedBytes, text, layers);
            COSStream stream = document.getDocument().createCOSStream();
            try (OutputStream raw = stream.createRawOutputStream()) {
                raw.write(encoded);
            }
            COSArray filters = new COSArray();
            for (int i = 0; i < layers; i++) {
                filters.add(COSName.FLATE_DECODE);
            }
            stream.setItem(COSName.FILTER, layers == 1 ? COSName.FLATE_DECODE : filters);
            page.getCOSObject().setItem(COSName.CONTENTS, stream);
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A one-page PDF of 60 text lines whose Flate-compressed content stream is cut in half (a damaged file). */
    static byte[] truncatedContentStream() {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            PDResources resources = new PDResources();
            COSName font = resources.add(new PDType1Font(Standard14Fonts.FontName.HELVETICA));
            page.setResources(resources);
            StringBuilder content = new StringBuilder("BT /" + font.getName() + " 10 Tf 20 780 Td\n");
            for (int i = 0; i < 60; i++) {
                content.append("(Line number ").append(i).append(" of the page) Tj 0 -12 Td\n");
            }
            content.append("ET\n");
            ByteArrayOutputStream compressed = new ByteArrayOutputStream();
            try (DeflaterOutputStream out = new DeflaterOutputStream(compressed)) {
                out.write(content.toString().getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            }
            byte[] full = compressed.toByteArray();
            COSStream stream = document.getDocument().createCOSStream();
            try (OutputStream raw = stream.createRawOutputStream()) {
                raw.write(full, 0, full.length / 2);
            }
            stream.setItem(COSName.FILTER, COSName.FLATE_DECODE);
            page.getCOSObject().setItem(COSName.CONTENTS, stream);
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A one-page PDF whose content stream holds {@code pairs} no-op "q Q" operator pairs (slow to interpret). */
    static byte[] manyOperators(int pairs) {
        try (PDDocument document = new PDDocument()) {
            PDPage page = new PDPage();
            document.addPage(page);
            try (PDPageContentStream content = new PDPageContentStream(document, page)) {
                for (int i = 0; i < pairs; i++) {
                    content.saveGraphicsState();
                    content.restoreGraphicsState();
                }
                content.beginText();
                content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
                content.newLineAtOffset(72, 700);
                content.showText("end");
                content.endText();
            }
            return save(document);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] deflateLayers(long padding, byte[] tail, int layers) throws IOException {
        ByteArrayOutputStream innermost = new ByteArrayOutputStream();
        Deflater deflater = new Deflater(layers > 1 ? Deflater.BEST_SPEED : Deflater.BEST_COMPRESSION);
        try (DeflaterOutputStream out = new DeflaterOutputStream(innermost, deflater, 1 << 16)) {
            byte[] spaces = new byte[1 << 20];
            java.util.Arrays.fill(spaces, (byte) ' ');
            for (long written = 0; written < padding; written += spaces.length) {
                out.write(spaces, 0, (int) Math.min(spaces.length, padding - written));
            }
            out.write(tail);
        } finally {
            deflater.end();
        }
        byte[] data = innermost.toByteArray();
        for (int i = 1; i < layers; i++) {
            ByteArrayOutputStream next = new ByteArrayOutputStream();
            try (DeflaterOutputStream out = new DeflaterOutputStream(next, new Deflater(Deflater.BEST_COMPRESSION))) {
                out.write(data);
            }
            data = next.toByteArray();
        }
        return data;
    }

    private static void writeText(PDDocument document, PDPage page, String text) throws IOException {
        try (PDPageContentStream content = new PDPageContentStream(document, page)) {
            content.beginText();
            content.setFont(new PDType1Font(Standard14Fonts.FontName.HELVETICA), 12);
            content.newLineAtOffset(72, 700);
            String[] lines = text.split("\n");
            for (int i = 0; i < lines.length; i++) {
                if (i > 0) {
                    content.newLineAtOffset(0, -16);
                }
                content.showText(lines[i]);
            }
            content.endText();
        }
    }

    private static byte[] save(PDDocument document) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        document.save(out);
        return out.toByteArray();
    }
}
