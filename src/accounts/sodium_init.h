// libsodium is initialised once, before the first use of any of its functions here.
#pragma once

namespace toguz::accounts {

// Throws std::runtime_error when libsodium cannot start (no entropy source).
void ensure_sodium();

}  // namespace toguz::accounts
