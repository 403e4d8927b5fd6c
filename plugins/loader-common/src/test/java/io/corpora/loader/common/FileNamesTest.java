package io.corpora.loader.common;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.corpora.spi.loader.LoadRequest;
import org.junit.jupiter.api.Test;

class FileNamesTest {

    @Test
    void traversalNamesAreShownAsTextButControlCharactersAreNeutralised() {
        assertEquals("../../etc/passwd", FileNames.forMessages("../../etc/passwd"));
        assertEquals("a.txt?ERROR forged log line", FileNames.forMessages("a.txt\nERROR forged log line"));
        assertEquals("invoice?fdp.exe", FileNames.forMessages("invoice\u202Efdp.exe"));
    }

    @Test
    void longNamesAreCutAndEmptyNamesGetAPlaceholder() {
        String cut = FileNames.forMessages("x".repeat(10_000));
        assertEquals(FileNames.MAX_LENGTH + 1, cut.length());
        assertEquals('…', cut.charAt(cut.length() - 1));
        assertEquals("document", FileNames.forMessages(""));
    }

    @Test
    void aSafeRequestIsReturnedAsIsAndAnUnsafeOneKeepsItsBytes() {
        LoadRequest safe = new LoadRequest(new byte[] {1}, "text/plain", null, "ok.txt");
        assertSame(safe, FileNames.forMessages(safe));
        LoadRequest unsafe = new LoadRequest(new byte[] {1}, "text/plain", "utf-8", "bad\r\nname");
        LoadRequest cleaned = FileNames.forMessages(unsafe);
        assertSame(unsafe.bytes(), cleaned.bytes());
        assertEquals("bad??name", cleaned.fileName());
        assertEquals("utf-8", cleaned.charset());
    }
}
