package com.shop.orders.sql;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.stream.LongStream;

import org.junit.jupiter.api.Test;

/** IN lists come in a few shapes: padded to a power of two with the last value, which matches the same rows. */
class SqlTest {

    @Test
    void anInListIsPaddedToTheNextPowerOfTwoWithItsLastValue() {
        Sql.InList three = Sql.inList(List.of(7L, 8L, 9L));
        assertEquals(List.of(7L, 8L, 9L, 9L), three.values());
        assertEquals("?, ?, ?, ?", three.placeholders());

        assertEquals(List.of(5L), Sql.inList(List.of(5L)).values());
        assertEquals(List.of(1L, 2L), Sql.inList(List.of(1L, 2L)).values());
        assertEquals(List.of(), Sql.inList(List.of()).values());
    }

    @Test
    void batchesOfAnySizeUpToAThousandMakeElevenStatements() {
        long shapes = LongStream.rangeClosed(1, 1000)
                .mapToObj(size -> Sql.inList(LongStream.rangeClosed(1, size).boxed().toList()).placeholders())
                .distinct().count();
        assertEquals(11, shapes);
        assertEquals(1024, Sql.inList(LongStream.rangeClosed(1, 1000).boxed().toList()).values().size());
    }
}
