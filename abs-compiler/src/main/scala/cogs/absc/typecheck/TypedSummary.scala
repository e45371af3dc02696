package cogs.absc.typecheck

/**
 * A checked program as a reader wants to see it (`absc dump --after check`): per module of the
 * user's, its declarations with their checked types, and what the effect analysis decided for
 * each method and main block (see [[EffectPhase]]): whether it may suspend, whether it is
 * compiled as a continuation, whether it gets a direct form (`m$now`) or a frame form
 * (`m$body`). Warnings are not repeated here (absc prints them).
 */
object TypedSummary {

  def apply(p: TypedProgram): String = {
    val sb = new StringBuilder
    def line(s: String): Unit = sb.append(s).append('\n')
    def params(ps: List[LocalSym]): String = ps.map(l => s"${l.tpe.show} ${l.name}").mkString("(", ", ", ")")
    for (m <- p.userModules) {
      line(s"module ${m.name} (${m.file})")
      for (d <- m.dataTypes)
        line(s"  data ${d.name}${tps(d.typeParams)} = ${d.constructors.map(c => c.name + (if (c.arity == 0) "" else c.argTypes.map(_.show).mkString("(", ", ", ")"))).mkString(" | ")}")
      for (f <- m.functions if !f.isSelector)
        line(s"  ${f.kind} ${f.resultType.show} ${f.name}${tps(f.typeParams)}${params(f.params)}")
      for (i <- m.interfaces)
        line(s"  interface ${i.name}: ${i.ownMethods.map(_.name).mkString(", ")}")
      for (c <- m.classes) {
        line(s"  class ${c.name}${c.params.map(f => s"${f.tpe.show} ${f.name}").mkString("(", ", ", ")")}${if (c.recover.nonEmpty) " (with a recover block)" else ""}")
        for (ms <- c.methods.values if ms.decl.isDefined) {
          val facts = List(
            if (p.maySuspend(ms)) "may suspend" else "never suspends",
            if (p.needsContinuation(ms)) "continuation" else "plain") ++
            (if (p.hasDirectForm(ms)) List("direct form") else Nil) ++
            (if (p.hasFrameForm(ms)) List("frame form") else Nil)
          line(s"    method ${ms.resultType.show} ${ms.name}${params(ms.params)}: ${facts.mkString(", ")}")
        }
      }
      m.main.foreach(_ => line(s"  main block: ${if (p.mainMaySuspend(m)) "may suspend" else "never suspends"}"))
    }
    sb.toString
  }

  private def tps(ps: List[TypeParamSym]): String = if (ps.isEmpty) "" else ps.map(_.name).mkString("<", ", ", ">")
}
