// Password work off the IO thread (accounts_site.cpp, mail_site.cpp): an Argon2id hash takes
// tens of milliseconds, so it runs on the password pool and its result comes back to the IO
// thread. Threading: called on the IO thread.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <string>

#include "accounts/password.h"
#include "net/log.h"
#include "net/router.h"
#include "site/accounts/hash_pool.h"
#include "site/refusal.h"
#include "site/texts.h"
#include "store/store.h"

namespace toguz::site {

// Runs `work` on the password pool in `lane` (not the IO thread: an Argon2id hash takes tens of
// milliseconds) and `done` with its result back on the IO thread. A throw in either answers
// 500 (503 with the fault's code for a store that refuses writes); a full queue 503
// "passwords_busy".
template <class Work, class Done>
void off_io(HashPool& hashes, boost::asio::io_context& ioc, HashLane lane,
            const net::Respond& respond, Work work, Done done) {
  auto failed = [respond](const std::string& what) {
    respond(Refusal("server_error", {{"detail", what}}).response());
  };
  auto refused = [respond](store::StoreFault fault) { respond(fault_refusal(fault).response()); };
  const bool queued = hashes.submit(
      [&ioc, work, done, failed, refused] {
        try {
          auto result = work();
          boost::asio::post(ioc, [done, failed, refused, result = std::move(result)]() mutable {
            try {
              done(std::move(result));
            } catch (const store::StoreUnavailable& e) {
              net::log(net::LogLevel::Error, "", std::string("accounts: ") + e.what());
              refused(e.fault);
            } catch (const std::exception& e) {
              net::log(net::LogLevel::Error, "", std::string("accounts: ") + e.what());
              failed(e.what());
            }
          });
        } catch (const std::exception& e) {
          boost::asio::post(ioc, [failed, what = std::string(e.what())] { failed(what); });
        }
      },
      lane);
  if (!queued) respond(Refusal("passwords_busy").response());
}

// A hash nobody's password matches: an unknown name costs a verification like a known one, so
// the time of the answer does not tell which names exist.
inline const std::string& dummy_hash() {
  static const std::string hash = accounts::hash_password("no account has this password");
  return hash;
}

}  // namespace toguz::site
