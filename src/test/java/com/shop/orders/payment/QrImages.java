package com.shop.orders.payment;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Map;

import javax.imageio.ImageIO;

import com.google.zxing.BinaryBitmap;
import com.google.zxing.DecodeHintType;
import com.google.zxing.ChecksumException;
import com.google.zxing.FormatException;
import com.google.zxing.NotFoundException;
import com.google.zxing.client.j2se.BufferedImageLuminanceSource;
import com.google.zxing.common.HybridBinarizer;
import com.google.zxing.qrcode.QRCodeReader;

/** Reads a QR code's PNG back as a wallet's app would: the code it was made of. */
final class QrImages {

    private QrImages() {
    }

    static String decode(byte[] png) throws IOException, NotFoundException, ChecksumException, FormatException {
        var image = ImageIO.read(new ByteArrayInputStream(png));
        // A generated image, not a photo: without PURE_BARCODE the finder-pattern search misses about 1 in 300.
        return new QRCodeReader().decode(new BinaryBitmap(new HybridBinarizer(new BufferedImageLuminanceSource(image))),
                Map.of(DecodeHintType.PURE_BARCODE, Boolean.TRUE)).getText();
    }
}
