package cogs.absc.spl

import scala.collection.immutable.ListMap
import scala.collection.mutable

import cogs.absc.ast._
import cogs.absc.diag.Diagnostic
import cogs.absc.typecheck.Suggest

/** A product as a value: its features in order, each with the attribute values it sets. */
final case class Product(name: String, features: ListMap[String, Map[String, AttrValue]]) {
  def has(f: String): Boolean = features.contains(f)

  /** `P(F, G{a = 1})`, as a product is written. */
  def show: String = features.map { case (f, as) =>
    if (as.isEmpty) f else as.map { case (a, v) => s"$a = $v" }.mkString(s"$f{", ", ", "}")
  }.mkString(s"$name(", ", ", ")")
}

/**
 * The product line part of a whole program (all its files), gathered and checked: the deltas by
 * name, the product line, the products evaluated to feature sets (product expressions included),
 * and the feature model. Errors are those of the declarations themselves (duplicates, unknown
 * names, cyclic product definitions); they hold for every product.
 */
private[spl] final class ProductLine(units: List[CompilationUnit]) {
  private val errs = mutable.ListBuffer.empty[Diagnostic]
  private def error(p: Pos, m: String): Unit = errs += Diagnostic.error(p, m)

  /** Declarations by name, in order; a second one of a name is an error (`what` names the kind). */
  private def byName[D <: SplNode](ds: List[D], what: String)(name: D => String): ListMap[String, D] = {
    val b = mutable.LinkedHashMap.empty[String, D]
    for (d <- ds) b.get(name(d)) match {
      case Some(prev) => error(d.pos, s"$what '${name(d)}' is already declared at ${prev.pos}")
      case None => b(name(d)) = d
    }
    ListMap.from(b)
  }

  val deltas: ListMap[String, DeltaDecl] = byName(units.flatMap(_.spl.deltas), "delta")(_.name)

  val line: Option[ProductLineDecl] = units.flatMap(_.spl.productLine) match {
    case Nil => None
    case one :: rest =>
      rest.foreach(pl => error(pl.pos, s"a program has one product line; '${one.name}' is declared at ${one.pos}"))
      Some(one)
  }

  val model: FeatureModel = new FeatureModel(units.flatMap(_.spl.features))
  errs ++= model.errors

  /** Every feature name the program declares: the product line's and the feature model's. */
  val featureNames: Set[String] = line.toList.flatMap(_.featureNames).toSet ++ model.features.keySet

  private val clauses: List[DeltaClause] = line.toList.flatMap(_.clauses)

  private def checkCond(c: AppCond): Unit = c match {
    case f @ FeatureCond(n) => if (!featureNames(n)) error(f.pos, s"unknown feature '$n' in the condition of a delta")
    case NotCond(x) => checkCond(x)
    case AndCond(l, r) => checkCond(l); checkCond(r)
    case OrCond(l, r) => checkCond(l); checkCond(r)
  }

  for (pl <- line) {
    val seen = mutable.HashMap.empty[String, Pos]
    for (c <- pl.clauses) {
      seen.get(c.delta) match {
        case Some(prev) => error(c.pos, s"delta '${c.delta}' already has a clause at $prev")
        case None => seen(c.delta) = c.pos
      }
      deltas.get(c.delta) match {
        case None => error(c.pos, s"the product line names delta '${c.delta}', which is not declared" + Suggest.hint(c.delta, deltas.keys))
        case Some(d) if d.params.length != c.args.length =>
          error(c.pos, s"delta '${c.delta}' has ${d.params.length} parameter(s), but its clause gives ${c.args.length}")
        case _ =>
      }
      c.args.foreach {
        case a @ AttrArg(f, attr) =>
          if (!featureNames(f)) error(a.pos, s"unknown feature '$f'")
          else if (model.features.contains(f) && !model.features(f).attrs.exists(_.name == attr))
            error(a.pos, s"feature '$f' has no attribute '$attr'")
        case a @ NameArg(n) if n != "True" && n != "False" && !featureNames(n) => error(a.pos, s"unknown feature '$n'")
        case _ =>
      }
      for (a <- c.after if !pl.clauses.exists(_.delta == a.name.name))
        error(a.pos, s"'after ${a.name}': the product line has no clause for delta '${a.name}'")
      c.when.foreach(checkCond)
    }
    for ((n, refs) <- pl.features.groupBy(_.name.name) if refs.size > 1) error(refs(1).pos, s"feature '$n' is listed twice")
  }

  // ---------------------------------------------------------------- products

  private val productDecls: ListMap[String, ProductDecl] = byName(units.flatMap(_.spl.products), "product")(_.name)

  private val evaluated = mutable.LinkedHashMap.empty[String, Option[Product]]

  private def specs(fs: List[FeatureSpec]): ListMap[String, Map[String, AttrValue]] = {
    for (f <- fs if !featureNames(f.name))
      error(f.pos, s"unknown feature '${f.name}'" + Suggest.hint(f.name, featureNames))
    ListMap.from(fs.map(f => f.name -> f.attrs.map(a => a.name -> a.value).toMap))
  }

  private def eval(p: ProductDecl, stack: List[String]): Option[Product] = evaluated.get(p.name) match {
    case Some(done) => done
    case None if stack.contains(p.name) =>
      error(p.pos, s"product '${p.name}' is defined in terms of itself (${(p.name :: stack).reverse.mkString(" -> ")})")
      None
    case None =>
      def expr(e: ProductExpr): Option[ListMap[String, Map[String, AttrValue]]] = e match {
        case ProductSet(fs) => Some(specs(fs))
        case n @ ProductName(name) => productDecls.get(name) match {
          case Some(d) => eval(d, p.name :: stack).map(_.features)
          case None => error(n.pos, s"unknown product '$name'" + Suggest.hint(name, productDecls.keys)); None
        }
        case ProductAnd(l, r) => for (a <- expr(l); b <- expr(r)) yield a.filter(f => b.contains(f._1))
        case ProductOr(l, r) => for (a <- expr(l); b <- expr(r)) yield a ++ b.filter(f => !a.contains(f._1))
        case ProductMinus(l, r) => for (a <- expr(l); b <- expr(r)) yield a.filter(f => !b.contains(f._1))
      }
      val r = (p.body match {
        case Right(fs) => Some(specs(fs))
        case Left(e) => expr(e)
      }).map(Product(p.name, _))
      evaluated(p.name) = r
      r
  }

  /** The declared products, evaluated (those whose definition is in error are left out). */
  val products: ListMap[String, Product] = ListMap.from(productDecls.values.flatMap(p => eval(p, Nil).map(p.name -> _)))

  def productPos(name: String): Option[Pos] = productDecls.get(name).map(_.pos)
  def productNames: List[String] = productDecls.keys.toList

  def errors: List[Diagnostic] = errs.toList.distinct

  def isEmpty: Boolean = units.forall(_.spl.isEmpty)

  // ---------------------------------------------------------------- delta selection and order

  def holds(c: AppCond, p: Product): Boolean = c match {
    case FeatureCond(f) => p.has(f)
    case NotCond(x) => !holds(x, p)
    case AndCond(l, r) => holds(l, p) && holds(r, p)
    case OrCond(l, r) => holds(l, p) || holds(r, p)
  }

  /** The clauses whose condition the product satisfies (no condition: always). */
  def applicable(p: Product): List[DeltaClause] = clauses.filter(c => c.when.forall(holds(_, p)))

  /**
   * The applicable clauses in an order that respects every `after` between them (deltas not
   * applied are ignored in `after`); unordered deltas keep the product line's order. A cycle is
   * an error at one of its clauses.
   */
  def ordered(p: Product): Either[Diagnostic, List[DeltaClause]] = {
    val todo = mutable.ListBuffer.from(applicable(p))
    val names = todo.map(_.delta).toSet
    val done = mutable.ListBuffer.empty[DeltaClause]
    while (todo.nonEmpty) {
      todo.find(c => c.afterNames.forall(a => !names(a) || done.exists(_.delta == a))) match {
        case Some(c) => todo -= c; done += c
        case None =>
          val c = todo.head
          return Left(Diagnostic.error(c.pos, s"the 'after' clauses of deltas ${todo.map(_.delta).mkString(", ")} form a cycle " +
            s"(product ${p.name}): no order applies them"))
      }
    }
    Right(done.toList)
  }

  /** Is delta `a` ordered before `b` by the `after` clauses (transitively), among `among`? */
  def before(a: String, b: String, among: List[DeltaClause]): Boolean = {
    val byName = among.map(c => c.delta -> c).toMap
    val seen = mutable.HashSet.empty[String]
    def reach(x: String): Boolean = byName.get(x).exists(_.afterNames.exists(y => y == a || (seen.add(y) && reach(y))))
    reach(b)
  }
}

