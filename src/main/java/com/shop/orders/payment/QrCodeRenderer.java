package com.shop.orders.payment;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.CRC32;
import java.util.zip.DeflaterOutputStream;

import jakarta.enterprise.context.ApplicationScoped;

import com.google.zxing.BarcodeFormat;
import com.google.zxing.EncodeHintType;
import com.google.zxing.WriterException;
import com.google.zxing.common.BitMatrix;
import com.google.zxing.qrcode.QRCodeWriter;
import com.google.zxing.qrcode.decoder.ErrorCorrectionLevel;
import com.shop.orders.resilience.MutinyBridge;

import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;

/**
 * Renders a QR code as a black-and-white PNG. The PNG is written directly (ZXing core for the
 * matrix, java.util.zip for the image) so that no AWT is needed in the native binary, one bit a pixel.
 * Rendering takes milliseconds of CPU (ZXing tries eight masks; the image is compressed), so it runs on a
 * worker thread, never on the event loop that serves other requests meanwhile.
 */
@ApplicationScoped
public class QrCodeRenderer {

    private static final int SIZE = 300;
    private static final byte[] PNG_SIGNATURE = { (byte) 137, 80, 78, 71, 13, 10, 26, 10 };

    /** The PNG, rendered on a worker thread; the item comes back on the caller's Vert.x context. */
    public Uni<byte[]> png(String content) {
        return MutinyBridge.backOnContext(Uni.createFrom().item(() -> pngNow(content))
                .runSubscriptionOn(Infrastructure.getDefaultWorkerPool()));
    }

    byte[] pngNow(String content) {
        try {
            BitMatrix matrix = new QRCodeWriter().encode(content, BarcodeFormat.QR_CODE, SIZE, SIZE,
                    Map.of(EncodeHintType.ERROR_CORRECTION, ErrorCorrectionLevel.M, EncodeHintType.MARGIN, 2,
                            EncodeHintType.CHARACTER_SET, StandardCharsets.UTF_8.name()));
            return encode(matrix);
        } catch (WriterException e) {
            throw new IllegalArgumentException("Cannot encode QR code", e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * 1-bit grayscale (a set bit is white), filter type 0 on every row: an eighth of the bytes to compress that
     * 8-bit pixels were, for the same picture.
     */
    private static byte[] encode(BitMatrix matrix) throws IOException {
        int width = matrix.getWidth();
        int height = matrix.getHeight();
        ByteArrayOutputStream pixels = new ByteArrayOutputStream();
        try (DeflaterOutputStream deflater = new DeflaterOutputStream(pixels)) {
            byte[] row = new byte[1 + (width + 7) / 8];
            for (int y = 0; y < height; y++) {
                Arrays.fill(row, (byte) 0);
                for (int x = 0; x < width; x++) {
                    if (!matrix.get(x, y)) {
                        row[1 + x / 8] |= (byte) (0x80 >>> (x % 8));
                    }
                }
                deflater.write(row);
            }
        }
        ByteArrayOutputStream png = new ByteArrayOutputStream();
        png.write(PNG_SIGNATURE);
        ByteArrayOutputStream header = new ByteArrayOutputStream();
        DataOutputStream ihdr = new DataOutputStream(header);
        ihdr.writeInt(width);
        ihdr.writeInt(height);
        ihdr.writeByte(1); // bit depth
        ihdr.writeByte(0); // grayscale
        ihdr.writeByte(0); // deflate
        ihdr.writeByte(0); // adaptive filtering
        ihdr.writeByte(0); // no interlace
        chunk(png, "IHDR", header.toByteArray());
        chunk(png, "IDAT", pixels.toByteArray());
        chunk(png, "IEND", new byte[0]);
        return png.toByteArray();
    }

    private static void chunk(ByteArrayOutputStream png, String type, byte[] data) throws IOException {
        DataOutputStream out = new DataOutputStream(png);
        byte[] typeBytes = type.getBytes(StandardCharsets.US_ASCII);
        out.writeInt(data.length);
        out.write(typeBytes);
        out.write(data);
        CRC32 crc = new CRC32();
        crc.update(typeBytes);
        crc.update(data);
        out.writeInt((int) crc.getValue());
    }
}
