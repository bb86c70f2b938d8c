// bug: assert — a handler checks an invariant the throwing path broke: the balance was
// debited before the exception was thrown.
#include <cassert>
#include <stdexcept>
#include "klee/klee.h"
struct Account {
  int balance = 100;
  void withdraw(int amount) {
    balance -= amount;
    if (balance < 0) throw std::runtime_error("overdrawn"); // BUG: debits first
  }
};
int main() {
  int amount;
  klee_make_symbolic(&amount, sizeof amount, "amount");
  klee_assume((amount > 0) & (amount < 1000));
  Account a;
  try {
    a.withdraw(amount);
  } catch (const std::runtime_error &) {
    assert(a.balance >= 0);
  }
  return 0;
}
