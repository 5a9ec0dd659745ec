#include "accounts/sodium_init.h"

#include <sodium.h>

#include <stdexcept>

namespace toguz::accounts {

void ensure_sodium() {
  static const bool ok = sodium_init() >= 0;
  if (!ok) throw std::runtime_error("libsodium could not be initialised");
}

}  // namespace toguz::accounts
