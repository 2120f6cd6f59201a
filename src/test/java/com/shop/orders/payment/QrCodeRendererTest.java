package com.shop.orders.payment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

import javax.imageio.ImageIO;

import org.junit.jupiter.api.Test;

/** The QR code's image as a wallet's app and a browser read it: a 300 x 300 PNG of one bit a pixel. */
class QrCodeRendererTest {

    private static final byte[] PNG_SIGNATURE = { (byte) 137, 80, 78, 71, 13, 10, 26, 10 };

    private final QrCodeRenderer renderer = new QrCodeRenderer();

    @Test
    void theImageReadsBackAsTheCodeItWasMadeOf() throws Exception {
        String code = "https://qr.alipay.com/bax08431xcljzwbhsowd0075";

        byte[] png = renderer.pngNow(code);

        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(300, image.getWidth());
        assertEquals(300, image.getHeight());
        assertEquals(code, QrImages.decode(png));
    }

    @Test
    void aPixelIsOneBitOfGrayAndTheMarginIsWhite() throws Exception {
        byte[] png = renderer.pngNow("weixin://wxpay/bizpayurl?pr=NwY5Mz9");

        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(png, 8));
        ByteBuffer ihdr = ByteBuffer.wrap(png, 16, 13);
        assertEquals(300, ihdr.getInt());
        assertEquals(300, ihdr.getInt());
        assertEquals(1, ihdr.get(), "bit depth");
        assertEquals(0, ihdr.get(), "grayscale");
        BufferedImage image = ImageIO.read(new ByteArrayInputStream(png));
        assertEquals(0xFFFFFFFF, image.getRGB(0, 0), "the quiet zone is white");
        boolean anyBlack = false;
        for (int x = 0; x < 300 && !anyBlack; x++) {
            anyBlack = image.getRGB(x, 150) == 0xFF000000;
        }
        assertTrue(anyBlack, "modules are black");
    }
}
