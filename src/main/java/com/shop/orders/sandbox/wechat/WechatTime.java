package com.shop.orders.sandbox.wechat;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/** WeChat Pay's times: RFC 3339 in Beijing time, to the second ("2026-12-06T10:00:05+08:00"). */
final class WechatTime {

    private static final DateTimeFormatter RFC3339 = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ssXXX")
            .withZone(ZoneId.of("Asia/Shanghai"));

    private WechatTime() {
    }

    static String format(Instant instant) {
        return RFC3339.format(instant);
    }
}
