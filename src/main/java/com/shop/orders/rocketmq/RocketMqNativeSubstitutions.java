package com.shop.orders.rocketmq;

import java.lang.reflect.Type;

import com.alibaba.fastjson.parser.DefaultJSONParser;
import com.alibaba.fastjson.serializer.JSONSerializer;
import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;

/**
 * Native-image substitutions for what rocketmq-client brings along (fastjson 1), next to its reflection metadata
 * ({@link RocketMqNativeReflection}). Quarkus links every reachable class at build time; fastjson's codec for JSR 354
 * money types stays reachable (fastjson picks codecs by class name) although {@code javax.money} is not on the class
 * path, so its two methods cannot be linked. RocketMQ's protocol has no money types: the codec is never used, and
 * if it were, it would fail as it does on a JVM without the library. The throws are that failure, not a stub: the
 * codec has nothing to do in this service.
 */
final class RocketMqNativeSubstitutions {

    private RocketMqNativeSubstitutions() {
    }

    @TargetClass(className = "com.alibaba.fastjson.support.moneta.MonetaCodec")
    static final class Target_MonetaCodec {

        @Substitute
        public void write(JSONSerializer serializer, Object object, Object fieldName, Type fieldType, int features) {
            throw new UnsupportedOperationException("JSR 354 money types (javax.money) are not on the class path");
        }

        @Substitute
        public <T> T deserialze(DefaultJSONParser parser, Type type, Object fieldName) {
            throw new UnsupportedOperationException("JSR 354 money types (javax.money) are not on the class path");
        }
    }
}
