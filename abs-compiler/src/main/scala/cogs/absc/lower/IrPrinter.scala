package cogs.absc.lower

/**
 * The IR ([[LProgram]]) as text for a reader (`absc dump --after lower`): every node as its
 * constructor and named fields, `LMethod(sig = LSig(..), .., frame = Some("m$body"))`; a node
 * that fits in [[Width]] characters on one line, else one field a line, indented. Written over
 * `Product`, so a field added to the IR shows without a change here. Linear in the size of the
 * IR: whether a node fits is found by rendering at most [[Width]] characters of it.
 */
object IrPrinter {
  val Width = 100

  def apply(p: LProgram): String = {
    val sb = new java.lang.StringBuilder
    node(p, 0, sb)
    sb.append('\n').toString
  }

  private def node(x: Any, depth: Int, sb: java.lang.StringBuilder): Unit = flat(x, Width) match {
    case Some(s) => sb.append(s)
    case None if x.isInstanceOf[String] => sb.append(Naming.stringLit(x.asInstanceOf[String]))
    case None =>
      val (open, close, items) = parts(x)
      sb.append(open)
      items.foreach { case (label, v) =>
        sb.append('\n')
        var i = 0
        while (i <= depth) { sb.append("  "); i += 1 }
        label.foreach(l => sb.append(l).append(" = "))
        node(v, depth + 1, sb)
      }
      sb.append('\n')
      var i = 0
      while (i < depth) { sb.append("  "); i += 1 }
      sb.append(close)
  }

  /** The opening, the closing and the labelled children of a value that does not fit on one line. */
  private def parts(x: Any): (String, String, List[(Option[String], Any)]) = x match {
    case m: Map[_, _] => ("Map(", ")", m.toList.map(kv => (None, kv)))
    case l: Iterable[_] => ("List(", ")", l.toList.map(v => (None, v)))
    case t: Product if t.productPrefix.startsWith("Tuple") => ("(", ")", t.productIterator.toList.map(v => (None, v)))
    case p: Product =>
      val names = p.productElementNames.toList
      (s"${p.productPrefix}(", ")", p.productIterator.toList.zip(names).map { case (v, n) =>
        (if (p.productArity == 1) None else Some(n), v)
      })
    case other => (other.toString, "", Nil)
  }

  /** `x` on one line if it fits in `budget` characters. */
  private def flat(x: Any, budget: Int): Option[String] = {
    val sb = new java.lang.StringBuilder
    if (flatInto(x, sb, budget)) Some(sb.toString) else None
  }

  private def flatInto(x: Any, sb: java.lang.StringBuilder, budget: Int): Boolean = {
    def fits = sb.length <= budget
    def seq(open: String, items: List[(Option[String], Any)]): Boolean = {
      sb.append(open)
      var first = true
      val it = items.iterator
      while (it.hasNext && fits) {
        val (label, v) = it.next()
        if (!first) sb.append(", ")
        first = false
        label.foreach(l => sb.append(l).append(" = "))
        if (!flatInto(v, sb, budget)) return false
      }
      sb.append(')')
      fits
    }
    x match {
      case s: String => sb.append(Naming.stringLit(s)); fits
      case (a, b) if !x.isInstanceOf[Iterable[_]] =>
        sb.append('('); flatInto(a, sb, budget) && { sb.append(", "); flatInto(b, sb, budget) } && { sb.append(')'); fits }
      case p: Product if p.productArity == 0 => sb.append(p.productPrefix); fits
      case _: Map[_, _] | _: Iterable[_] | _: Product =>
        val (open, _, items) = parts(x)
        seq(open, items)
      case other => sb.append(other.toString); fits
    }
  }
}
