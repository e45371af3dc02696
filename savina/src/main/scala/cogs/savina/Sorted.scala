package cogs.savina

/** The answer of the sorting benchmarks: how many values, whether in order, and a digest of the sequence. */
final case class Sorted(count: Long, inOrder: Boolean, digest: Long) {
  override def toString = s"$count values, ${if (inOrder) "in order" else "OUT OF ORDER"}, digest ${java.lang.Long.toHexString(digest)}"
}

object Sorted {
  /** The answer for a sequence given all at once. */
  def of(xs: Array[Long]): Sorted = {
    val v = new Validation
    xs.foreach(v.add)
    v.result
  }

  /** The answer for a sequence given one value at a time. */
  final class Validation {
    private[this] var count = 0L
    private[this] var prev = Long.MinValue
    private[this] var ordered = true
    private[this] var h = 1125899906842597L

    /** Add the next value; the number of values so far. */
    def add(v: Long): Long = {
      if (v < prev) ordered = false
      prev = v
      h = h * 31 + v
      count += 1
      count
    }

    def result: Sorted = Sorted(count, ordered, h)
  }
}
