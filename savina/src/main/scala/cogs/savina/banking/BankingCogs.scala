package cogs.savina.banking

import cogs.runtime._

/**
 * Banking on Cogs: `transfer` on the source account takes the amount and awaits `destination !
 * deposit(amount)`; its own future resolves when the destination confirmed. The teller sends all
 * transfers, awaits every future, then reads every balance. Savina's Akka version stashes all
 * other messages of the source account until the destination replied (a `get`, in ABS terms);
 * here the source account awaits, so it serves other transfers meanwhile (whole-number balances
 * make the order irrelevant to the answer).
 */
object BankingCogs {

  trait Account extends Active {
    def transfer(amount: Long, to: Account): Proc[Unit]
    def deposit(amount: Long): Proc[Unit]
    def balance(): Proc[Long]
  }

  trait Teller extends Active {
    def serve(accounts: Array[Account], p: Params): Proc[Ledger]
  }

  final class AccountImpl(initial: Long) extends ActiveObject with Account {
    private[this] var money = initial

    def transfer(amount: Long, to: Account): Proc[Unit] = {
      money -= amount
      Proc.await(to.send("deposit")(_.deposit(amount)))
    }

    def deposit(amount: Long): Proc[Unit] = { money += amount; Proc.unit }

    def balance(): Proc[Long] = Proc.done(money)
  }

  final class TellerImpl extends ActiveObject with Teller {
    def serve(accounts: Array[Account], p: Params): Proc[Ledger] = {
      val ts = new Banking.Transfers(p)
      val futs = new Array[Fut[Unit]](p.transactions)
      var i = 0
      while (i < p.transactions) {
        val (src, dst, amount) = ts.next()
        val to = accounts(dst)
        futs(i) = accounts(src).send("transfer")(_.transfer(amount, to))
        i += 1
      }
      var done = 0L
      Proc.repeat(futs.length)(j => Proc.await(futs(j)).map(_ => done += 1))
        .flatMap(_ => Proc.awaitAll(accounts.toList.map(_.send("balance")(_.balance()))))
        .map(balances => Banking.ledger(done, balances.toArray))
    }
  }

  def run(rt: CogRuntime, p: Params): Ledger =
    rt.run {
      val accounts: Array[Account] = Array.fill(p.accounts)(Cogs.spawn(new AccountImpl(Banking.InitialBalance)))
      val teller: Teller = Cogs.spawn(new TellerImpl)
      Proc.await(teller.send("serve")(_.serve(accounts, p)))
    }
}
