package cogs.absc.lower

import cogs.absc.ast._
import cogs.absc.typecheck._

/**
 * The one analysis of object death (ABS manual, "Exceptions": an exception that leaves a method
 * kills its object unless the class's `recover` block handles it; `die e` kills it; later calls
 * of a dead object fail with `ObjectDeadException`). It answers two questions, which `Lower`
 * records in the IR and the printer only prints:
 *
 *  - [[mayFail]]: can an exception leave this method's body? Only such a method needs the handler
 *    that hands the exception to `recover$` (`LMethod.handler`).
 *  - [[mortal]]: can an object of this class die at all, that is, may any of its methods fail (or
 *    is it `[Foreign]`, whose methods run code absc does not see)? Only then do its methods check
 *    `dead$` first (`LMethod.deadCheck`); an object no method can kill never has `dead$` set.
 *    (An init block that fails makes the `new` fail; it never set `dead$` and does not now.)
 *
 * The answer is conservative: a body "cannot fail" only when it is made of constructs that raise
 * nothing by their ABS semantics: literals, locals, fields, `this`, `+ - *` and comparisons of
 * numbers and strings, boolean operators, equality, constructors of data, `if`/`let` over those;
 * assignments, `skip`, `if`, `while`, `suspend`, `return`, blocks, and `await` on such a condition.
 * Everything else may fail: any call (a function, `o!m()` on null, a synchronous call, `new`,
 * whose init block may throw), `get`, awaiting a future, `/` and `%`, `case`, `switch`, `assert`,
 * `throw`, `die`, templates, casts, anything annotated (a Timed ABS cost, say). Exhaustion of the
 * JVM's resources is not an ABS construct's semantics: running out of memory is fatal to the whole
 * run (the runtime halts, cogs.runtime's README), and a stack overflow needs a deep stack, which a
 * body with no call cannot build (methods are entered from the runtime's shallow interpreter, or
 * by a plain JVM call from a method of the same object along an acyclic chain, `EffectPhase`).
 */
private[lower] final class ObjectDeath(program: TypedProgram) {
  private val b = program.builtins

  /** Can an object of `c` die? */
  def mortal(c: ClassSym): Boolean = c.isForeign || c.methods.valuesIterator.exists(mayFail)

  /** Can an exception leave `m` (a method without a body: no; of a `[Foreign]` class: yes)? */
  def mayFail(m: MethodSym): Boolean = m.ownerClass.exists(_.isForeign) || m.body.exists(b => !safe(b))

  private def safe(s: Stmt): Boolean = s.annotations.isEmpty && (s match {
    case Block(ss, _) => ss.forall(safe)
    case _: SkipStmt | _: SuspendStmt => true
    case VarDeclStmt(_, _, init, _) => init.forall(safeExp)
    case AssignStmt(_: VarUse | _: FieldUse, v, _) => safeExp(v)
    case ExpStmt(e, _) => safeExp(e)
    case ReturnStmt(e, _) => safeExp(e)
    case IfStmt(c, t, e, _) => safePure(c) && safe(t) && e.forall(safe)
    case WhileStmt(c, body, _) => safePure(c) && safe(body)
    case AwaitStmt(g, _) => safeGuard(g)
    case _ => false
  })

  // A claim `f?` fails on a null future; a duration is Timed ABS's: only conditions are safe.
  private def safeGuard(g: Guard): Boolean = g match {
    case ExpGuard(c) => safePure(c)
    case AndGuard(l, r) => safeGuard(l) && safeGuard(r)
    case _ => false
  }

  private def safeExp(e: Exp): Boolean = e match {
    case p: PureExp => safePure(p)
    case _ => false // calls, new, get, await
  }

  private def safePure(e: PureExp): Boolean = e match {
    case _: IntLit | _: FloatLit | _: StringLit | _: NullLit | _: ThisExp | _: VarUse | _: FieldUse => true
    case Unary(_, x) => safePure(x)
    case Binary(op, l, r) => safePure(l) && safePure(r) && (op match {
      case BinaryOp.And | BinaryOp.Or | BinaryOp.Eq | BinaryOp.Ne => true
      case BinaryOp.Add | BinaryOp.Sub | BinaryOp.Mul | BinaryOp.Lt | BinaryOp.Le | BinaryOp.Gt | BinaryOp.Ge =>
        plainOperand(l) && plainOperand(r)
      case _ => false // `/` and `%` divide by zero
    })
    case IfExp(c, t, f) => safePure(c) && safePure(t) && safePure(f)
    case LetExp(bs, body) => bs.forall(x => safePure(x.value)) && safePure(body)
    case ConstructorApp(_, args) => args.forall(safePure)
    case _ => false
  }

  /** A number or a string: `+ - *` and the orderings of these raise nothing. */
  private def plainOperand(e: PureExp): Boolean = {
    val t = program.typeOf(e)
    b.isNumeric(t) || b.isString(t)
  }
}
