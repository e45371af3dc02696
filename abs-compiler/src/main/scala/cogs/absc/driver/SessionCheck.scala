package cogs.absc.driver

import cogs.absc.ast.Pos
import cogs.absc.diag.Diagnostic
import cogs.absc.monitoring.SessionEntry
import cogs.absc.typecheck.TypedProgram

/**
 * The parts of a monitor configuration's sessions that need the model: every class bound to a
 * role exists (`main`, the main block, always does), and every mapped method is a method of the receiving role's class taking as many
 * parameters as the message has payload elements. Errors are at the configuration's line (HOCON
 * gives no column: column 1).
 */
private[driver] object SessionCheck {
  def apply(program: TypedProgram, sessions: List[SessionEntry]): List[Diagnostic] = sessions.flatMap { e =>
    def at(line: Int, msg: String) = Diagnostic.error(Pos(e.configFile, math.max(line, 1), 1), msg)
    val classes = program.classes.map(c => c.name -> c).toMap
    val roleErrors = e.roles.collect { case (r, c, l) if c != SessionEntry.MainBlock && !classes.contains(c) =>
      at(l, s"sessions: role $r of ${e.protocol} is bound to class '$c', which the model does not have" +
        (if (classes.isEmpty) "" else s" (its classes: ${classes.keys.toList.sorted.mkString(", ")})"))
    }
    val callErrors = e.calls.flatMap { c =>
      val cls = e.classOf(c.msg.to)
      classes.get(cls).toList.flatMap { cs =>
        cs.method(c.method) match {
          case None =>
            List(at(c.line, s"sessions: message ${c.msg.label} goes to role ${c.msg.to} (class $cls), which has no method '${c.method}'"))
          case Some(m) if m.params.size != c.msg.payload.size =>
            List(at(c.line, s"sessions: method $cls.${c.method} takes ${m.params.size} parameter(s), message ${c.msg} carries ${c.msg.payload.size}"))
          case Some(_) => Nil
        }
      }
    }
    roleErrors ++ callErrors
  }
}
