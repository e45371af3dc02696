package cogs.absc.run

import java.nio.charset.StandardCharsets.UTF_8

/**
 * Where in the model an error the JVM raised in generated code happened (a stack overflow,
 * running out of memory): such errors carry no ABS position of their own, only a Java stack trace.
 * absc writes, next to the classes of each module `absmodel/Bank.scala`, a line table
 * `absmodel/Bank.scala.abslines` (see `cogs.absc.emit.Printer.lineTable`): the ABS file's name,
 * then `SCALA_LINE ABS_LINE` pairs, ascending, where `ABS_LINE` holds from `SCALA_LINE` on (0: no
 * line known there). The first frame from the top of the trace that falls in a known line is the
 * answer. Read only when such an error is reported, never on a normal run.
 */
private[absc] object AbsLines {

  /** `file.abs:line` of the innermost frame of `t` in the model's code, if the tables say. */
  def of(t: Throwable, loader: ClassLoader): Option[String] = inFrames(t.getStackTrace, loader, all = false).headOption

  /**
   * The ABS lines of a stack, innermost first, a line repeated by consecutive frames given once:
   * where a process that does not reach a scheduling point is, and how it got there.
   */
  def ofStack(frames: Array[StackTraceElement], loader: ClassLoader): List[String] = inFrames(frames, loader, all = true)

  private def inFrames(frames: Array[StackTraceElement], loader: ClassLoader, all: Boolean): List[String] = {
    val tables = scala.collection.mutable.HashMap.empty[String, Option[Table]]
    val found = List.newBuilder[String]
    var last: String = null
    var i = 0
    while (i < frames.length) {
      val f = frames(i)
      if ((f.getFileName ne null) && f.getLineNumber > 0) {
        val cls = f.getClassName
        val dot = cls.lastIndexOf('.')
        val resource = (if (dot < 0) "" else cls.substring(0, dot).replace('.', '/') + "/") + f.getFileName + ".abslines"
        tables.getOrElseUpdate(resource, load(resource, loader)).flatMap(_.at(f.getLineNumber)) match {
          case Some(line) if line != last =>
            if (!all) return List(line)
            found += line
            last = line
          case _ =>
        }
      }
      i += 1
    }
    found.result()
  }

  private final class Table(file: String, starts: Array[Int], line: Array[Int]) {
    def at(scalaLine: Int): Option[String] = {
      // The last entry at or before scalaLine.
      var lo = 0
      var hi = starts.length - 1
      var found = -1
      while (lo <= hi) {
        val mid = (lo + hi) >>> 1
        if (starts(mid) <= scalaLine) { found = mid; lo = mid + 1 } else hi = mid - 1
      }
      if (found < 0 || line(found) <= 0) None else Some(s"$file:${line(found)}")
    }
  }

  private def load(resource: String, loader: ClassLoader): Option[Table] = {
    val in = if (loader eq null) ClassLoader.getSystemResourceAsStream(resource) else loader.getResourceAsStream(resource)
    if (in eq null) None
    else
      try {
        val lines = new String(in.readAllBytes(), UTF_8).split('\n')
        val pairs = lines.iterator.drop(1).filter(_.nonEmpty).map { l =>
          val sp = l.indexOf(' ')
          (l.substring(0, sp).toInt, l.substring(sp + 1).toInt)
        }.toArray
        Some(new Table(lines(0), pairs.map(_._1), pairs.map(_._2)))
      } catch { case _: RuntimeException => None } // a damaged table only costs the location
      finally in.close()
  }
}
