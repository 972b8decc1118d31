package dev.clique.engine.transcript;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Finds bytes in a transcript's lines eight at a time, each step one long compared lane by lane:
 * most of a large file is tool output that holds neither a line's end nor a record's type.
 */
final class ByteSearch {

  /** Little-endian, so the first byte of a step is its lowest lane. */
  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final long ONES = 0x0101010101010101L;
  private static final long HIGHS = 0x8080808080808080L;

  private ByteSearch() {}

  /** The offset of the first {@code b} in {@code bytes[from, to)}, or -1. */
  static int indexOf(byte[] bytes, int from, int to, byte b) {
    long lanes = ONES * (b & 0xFF);
    int at = from;
    for (; at <= to - Long.BYTES; at += Long.BYTES) {
      long hits = zeroLanes((long) LONGS.get(bytes, at) ^ lanes);
      if (hits != 0) {
        return at + firstLane(hits);
      }
    }
    for (; at < to; at++) {
      if (bytes[at] == b) {
        return at;
      }
    }
    return -1;
  }

  /**
   * The offset of the first {@code pattern} in {@code bytes[from, to)}, or -1. Only where its first
   * and its last byte both match are the bytes between compared.
   */
  static int indexOf(byte[] bytes, int from, int to, byte[] pattern) {
    int span = pattern.length - 1;
    long first = ONES * (pattern[0] & 0xFF);
    long last = ONES * (pattern[span] & 0xFF);
    int at = from;
    for (; at <= to - span - Long.BYTES; at += Long.BYTES) {
      long ends =
          ((long) LONGS.get(bytes, at) ^ first) | ((long) LONGS.get(bytes, at + span) ^ last);
      for (long hits = zeroLanes(ends); hits != 0; hits &= hits - 1) {
        int start = at + firstLane(hits);
        if (matches(bytes, start, pattern)) {
          return start;
        }
      }
    }
    for (; at < to - span; at++) {
      if (matches(bytes, at, pattern)) {
        return at;
      }
    }
    return -1;
  }

  /** Whether {@code pattern} is at {@code bytes[at]}; the caller knows it fits. */
  static boolean matches(byte[] bytes, int at, byte[] pattern) {
    for (int k = 0; k < pattern.length; k++) {
      if (bytes[at + k] != pattern[k]) {
        return false;
      }
    }
    return true;
  }

  /**
   * The high bit of each zero lane of {@code x}; a lane above a zero one may be flagged too (a
   * borrow), so only the lowest flag is sure.
   */
  private static long zeroLanes(long x) {
    return (x - ONES) & ~x & HIGHS;
  }

  private static int firstLane(long hits) {
    return Long.numberOfTrailingZeros(hits) >>> 3;
  }
}
