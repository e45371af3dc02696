package cogs.absc.typecheck

import scala.collection.mutable

import cogs.absc.ast.Pos
import cogs.absc.diag.Diagnostic

/** Collects the diagnostics of a run: each (position, message) once, in a stable order. */
private[typecheck] final class Reporter(fileOrder: List[String]) {

  private val seen = mutable.LinkedHashSet.empty[Diagnostic]

  def error(pos: Pos, message: String): Unit = seen += Diagnostic.error(pos, message)

  def warning(pos: Pos, message: String): Unit = seen += Diagnostic.warning(pos, message)

  def errorCount: Int = seen.count(_.isError)

  def hasErrors: Boolean = seen.exists(_.isError)

  /** Sorted by file (in the order the files were given), then line and column. */
  def all: List[Diagnostic] = {
    val rank = fileOrder.zipWithIndex.toMap
    seen.toList.sortBy(d => (rank.getOrElse(d.pos.file, Int.MaxValue), d.pos.file, d.pos.line, d.pos.col))
  }
}
