// Accounts: the username rules, Argon2id password hashes, session tokens and cookies, the Origin
// check and the login limiter with an injected clock.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "accounts/limiter.h"
#include "accounts/password.h"
#include "accounts/pool.h"
#include "accounts/session.h"
#include "accounts/username.h"

namespace toguz::accounts {
namespace {

std::string refusal(std::string_view name) {
  const auto e = check_username(name);
  return e ? std::string(code(*e)) : "ok";
}

TEST(Username, Rules) {
  EXPECT_EQ(refusal("ab"), "ok");
  EXPECT_EQ(refusal("Aigerim_92"), "ok");
  EXPECT_EQ(refusal("a-b_C-9"), "ok");
  EXPECT_EQ(refusal(std::string(20, 'x')), "ok");
  EXPECT_EQ(refusal(std::string(21, 'x')), "username_too_long");
  EXPECT_EQ(refusal("a"), "username_too_short");
  EXPECT_EQ(refusal(""), "username_too_short");
  EXPECT_EQ(refusal("a b"), "username_bad_character");
  EXPECT_EQ(refusal("<script>"), "username_bad_character");
  EXPECT_EQ(refusal("Айгерим"), "username_bad_character");  // ASCII only
  EXPECT_EQ(refusal("dot.name"), "username_bad_character");
  EXPECT_EQ(refusal(std::string("ab\0c", 4)), "username_bad_character");
}

TEST(Username, ReservedInAnyCase) {
  for (const char* name : {"admin", "Admin", "TOGUZ", "system", "Anonymous", "engine", "bot"})
    EXPECT_EQ(refusal(name), "username_reserved") << name;
  EXPECT_EQ(refusal("admin2"), "ok");  // only the names themselves
}

TEST(Username, KeyIgnoresCase) {
  EXPECT_EQ(username_key("Aigerim_X-1"), "aigerim_x-1");
  EXPECT_EQ(username_key("AIGERIM"), username_key("aigerim"));
  EXPECT_NE(username_key("aigerim"), username_key("aigerim_"));
}

// The tests hash at libsodium's smallest cost; the site's cost is checked once, below.
const PasswordCost kCheap{1, 8192};

TEST(Password, LengthLimits) {
  EXPECT_EQ(check_password("9 letters"), PasswordError::too_short);
  EXPECT_EQ(check_password("10 letters"), std::nullopt);
  // Characters, not bytes: nine Cyrillic letters are 18 bytes and still too short.
  EXPECT_EQ(check_password("пароль-ок"), PasswordError::too_short);
  EXPECT_EQ(check_password("пароль-ок!"), std::nullopt);
  EXPECT_EQ(check_password(std::string(256, 'p')), std::nullopt);
  EXPECT_EQ(check_password(std::string(257, 'p')), PasswordError::too_long);
  EXPECT_EQ(code(PasswordError::too_short), "password_too_short");
  EXPECT_EQ(code(PasswordError::too_long), "password_too_long");
  EXPECT_THROW(hash_password("", kCheap), std::invalid_argument);
  EXPECT_THROW(hash_password(std::string(257, 'p'), kCheap), std::invalid_argument);
  // An old account's short password is still hashed again at login (needs_rehash).
  EXPECT_NO_THROW(hash_password("8 bytes!", kCheap));
}

TEST(Password, BlankAndCommonPasswordsAreRefused) {
  EXPECT_EQ(check_password(std::string(10, ' ')), PasswordError::blank);
  EXPECT_EQ(check_password(" \t \t \t \t \n\r"), PasswordError::blank);
  EXPECT_EQ(code(PasswordError::blank), "password_blank");
  for (const char* p : {"password123", "Password123", "PASSWORD 123", "qwertyuiop", "1234567890",
                        "1q2w3e4r5t", "iloveyou123", "qwerty12345", "ЙЦУКЕНГШЩЗ", "0000000000",
                        "aigerim2024", "toguzkorgool", "correct horse battery staple"})
    EXPECT_EQ(check_password(p), PasswordError::common) << p;
  EXPECT_EQ(code(PasswordError::common), "password_common");
  for (const char* p : {"correct horse", "a good password", "Жұлдыз-кумалак-7", "tq8#Lm2!vZ"})
    EXPECT_EQ(check_password(p), std::nullopt) << p;
  EXPECT_TRUE(common_password("letmein123"));
  EXPECT_FALSE(common_password("letmein1234x"));
}

TEST(Password, HashAndVerify) {
  const std::string hash = hash_password("correct horse", kCheap);
  EXPECT_TRUE(hash.starts_with("$argon2id$"));
  EXPECT_EQ(hash.find("correct horse"), std::string::npos);
  EXPECT_TRUE(verify_password("correct horse", hash));
  EXPECT_FALSE(verify_password("correct horsf", hash));
  EXPECT_FALSE(verify_password("", hash));
  EXPECT_FALSE(verify_password("correct horse", "not a hash"));
  EXPECT_FALSE(verify_password("correct horse", ""));
  // A fresh salt each time: two hashes of one password differ, and both verify.
  const std::string again = hash_password("correct horse", kCheap);
  EXPECT_NE(again, hash);
  EXPECT_TRUE(verify_password("correct horse", again));
  // Any bytes, the longest allowed included.
  const std::string odd = std::string("pa\0ss", 5) + "wörd" + std::string(240, 'z');
  ASSERT_LE(odd.size(), kPasswordMax);
  EXPECT_TRUE(verify_password(odd, hash_password(odd, kCheap)));
  EXPECT_FALSE(verify_password(std::string("pa", 2), hash_password(odd, kCheap)));
}

TEST(Password, SiteCostAndRehash) {
  const std::string site = hash_password("correct horse");
  EXPECT_NE(site.find("$m=65536,t=2,p=1$"), std::string::npos) << site;
  EXPECT_FALSE(needs_rehash(site));
  const std::string cheap = hash_password("correct horse", kCheap);
  EXPECT_TRUE(needs_rehash(cheap));
  EXPECT_FALSE(needs_rehash(cheap, kCheap));
  EXPECT_TRUE(needs_rehash("garbage"));
}

TEST(Session, TokenShapeAndHash) {
  const NewSession s = new_session(1000);
  EXPECT_EQ(s.token.size(), 43u);
  for (char c : s.token)
    EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
  EXPECT_EQ(s.hash.size(), 64u);
  EXPECT_EQ(s.hash.find(s.token), std::string::npos);
  EXPECT_EQ(token_hash(s.token), s.hash);
  EXPECT_EQ(s.expires_ms, 1000 + kSessionLifetimeMs);
  std::set<std::string> tokens;
  for (int i = 0; i < 100; ++i) tokens.insert(new_session(0).token);
  EXPECT_EQ(tokens.size(), 100u);
}

TEST(Session, MalformedTokensHaveNoHash) {
  const std::string token = new_session(0).token;
  EXPECT_EQ(token_hash(""), std::nullopt);
  EXPECT_EQ(token_hash(token.substr(1)), std::nullopt);
  EXPECT_EQ(token_hash(token + "A"), std::nullopt);
  EXPECT_EQ(token_hash(std::string(42, 'A') + "="), std::nullopt);
  EXPECT_EQ(token_hash(std::string(42, 'A') + "+"), std::nullopt);  // not base64url
}

TEST(Session, MatchesAndExpires) {
  const NewSession s = new_session(0, 60'000);
  EXPECT_TRUE(session_matches(s.token, s.hash, s.expires_ms, 59'999));
  EXPECT_FALSE(session_matches(s.token, s.hash, s.expires_ms, 60'000));
  const NewSession other = new_session(0, 60'000);
  EXPECT_FALSE(session_matches(other.token, s.hash, s.expires_ms, 1));
  EXPECT_FALSE(session_matches("junk", s.hash, s.expires_ms, 1));
  EXPECT_FALSE(session_matches(s.token, "", s.expires_ms, 1));
}

TEST(Session, Cookies) {
  EXPECT_EQ(session_cookie("TOKEN", 3'600'000, 0, false),
            "toguz_session=TOKEN; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax");
  EXPECT_EQ(session_cookie("TOKEN", 3'600'000, 0, true),
            "toguz_session=TOKEN; Path=/; Max-Age=3600; HttpOnly; SameSite=Lax; Secure");
  EXPECT_EQ(session_cookie("T", 0, 5000, false).find("Max-Age=0;") != std::string::npos, true);
  EXPECT_EQ(clear_session_cookie(true),
            "toguz_session=; Path=/; Max-Age=0; HttpOnly; SameSite=Lax; Secure");
  EXPECT_EQ(find_cookie("a=1; toguz_session=abc; b=2"), "abc");
  EXPECT_EQ(find_cookie("toguz_session=abc"), "abc");
  EXPECT_EQ(find_cookie("xtoguz_session=abc; other=1"), std::nullopt);
  EXPECT_EQ(find_cookie("a=1;b=2", "b"), "2");
  EXPECT_EQ(find_cookie("a=1; junk; b=2", "b"), "2");
  EXPECT_EQ(find_cookie(""), std::nullopt);
  EXPECT_EQ(find_cookie("toguz_session="), "");
}

TEST(Session, SameOrigin) {
  EXPECT_TRUE(same_origin("http://localhost:8080", "localhost:8080", false));
  EXPECT_TRUE(same_origin("https://toguz.example", "toguz.example", true));
  EXPECT_TRUE(same_origin("https://Toguz.Example", "toguz.example:443", true));
  EXPECT_FALSE(same_origin("http://toguz.example", "toguz.example", true));  // scheme
  EXPECT_FALSE(same_origin("https://evil.example", "toguz.example", true));
  EXPECT_FALSE(same_origin("https://toguz.example.evil", "toguz.example", true));
  EXPECT_FALSE(same_origin("http://localhost:8081", "localhost:8080", false));
  EXPECT_TRUE(same_origin("", "localhost:8080", false));  // no header: not a browser's request
  EXPECT_FALSE(same_origin("null", "localhost:8080", false));
  EXPECT_FALSE(same_origin("http://localhost:8080", "", false));
  EXPECT_FALSE(same_origin("http://localhost:8080/", "localhost:8080", false));
}

TEST(Limiter, PerAccountAndAddress) {
  LoginLimiter limiter;  // 5 per account and address, 20 per address, 5 minutes
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(limiter.check("aigerim", "10.0.0.1", i * 1000).allowed) << i;
    limiter.failure("aigerim", "10.0.0.1", i * 1000);
  }
  LoginVerdict v = limiter.check("aigerim", "10.0.0.1", 5000);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.code, "login_locked_account");
  EXPECT_EQ(v.retry_after_ms, 300'000 - 5000);
  // The owner, from an address with no failures, still logs in; the attacker's address may try
  // other accounts until its own limit.
  EXPECT_TRUE(limiter.check("aigerim", "10.0.0.2", 5000).allowed);
  EXPECT_TRUE(limiter.check("other", "10.0.0.1", 5000).allowed);
  // The oldest failure leaves the window at 300 000 ms: one more attempt.
  EXPECT_FALSE(limiter.check("aigerim", "10.0.0.1", 299'999).allowed);
  EXPECT_TRUE(limiter.check("aigerim", "10.0.0.1", 300'000).allowed);
}

TEST(Limiter, SuccessForgetsTheAccountOnly) {
  LoginLimiter limiter({.per_account = 2, .per_address = 3, .window_ms = 1000});
  limiter.failure("a", "ip", 0);
  limiter.failure("a", "ip", 1);
  EXPECT_FALSE(limiter.check("a", "ip", 2).allowed);
  limiter.success("a", "other ip");  // another address's success forgets nothing here
  EXPECT_FALSE(limiter.check("a", "ip", 2).allowed);
  limiter.success("a", "ip");
  EXPECT_TRUE(limiter.check("a", "ip", 3).allowed);
  limiter.failure("b", "ip", 4);
  const LoginVerdict v = limiter.check("c", "ip", 5);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.code, "login_locked_address");
  EXPECT_EQ(v.retry_after_ms, 995);
}

TEST(Limiter, PerAddressAcrossAccounts) {
  LoginLimiter limiter;
  for (int i = 0; i < 20; ++i) limiter.failure("user" + std::to_string(i), "198.51.100.7", i);
  EXPECT_EQ(limiter.check("fresh", "198.51.100.7", 100).code, "login_locked_address");
  EXPECT_TRUE(limiter.check("fresh", "198.51.100.8", 100).allowed);
}

TEST(Limiter, SignupsPerAddress) {
  SignupLimiter limiter({.per_window = 3, .window_ms = 1000});
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(limiter.admit("10.0.0.1", i * 100).allowed) << i;
  const LoginVerdict v = limiter.admit("10.0.0.1", 300);
  EXPECT_FALSE(v.allowed);
  EXPECT_EQ(v.code, "signup_rate");
  EXPECT_EQ(v.retry_after_ms, 700);                      // the first leaves at 1000
  EXPECT_TRUE(limiter.admit("10.0.0.2", 300).allowed);   // another address
  EXPECT_FALSE(limiter.admit("10.0.0.1", 999).allowed);  // refusals are not counted
  EXPECT_TRUE(limiter.admit("10.0.0.1", 1000).allowed);
  EXPECT_EQ(limiter.sweep(1250), 2u);
  EXPECT_EQ(limiter.sweep(2000), 0u);
}

TEST(Limiter, SweepDropsOldKeys) {
  LoginLimiter limiter({.per_account = 5, .per_address = 20, .window_ms = 1000});
  limiter.failure("a", "ip1", 0);
  limiter.failure("b", "ip2", 500);
  EXPECT_EQ(limiter.sweep(600), 4u);
  EXPECT_EQ(limiter.sweep(1000), 2u);
  EXPECT_EQ(limiter.sweep(1500), 0u);
}

using Pairs = std::vector<std::pair<std::string, std::string>>;

TEST(Pool, RangeWidensWithWaiting) {
  const PairingPool pool;  // 100, +10 a second, at most 500
  EXPECT_DOUBLE_EQ(pool.range(0, 0), 100);
  EXPECT_DOUBLE_EQ(pool.range(0, 10'000), 200);
  EXPECT_DOUBLE_EQ(pool.range(0, 40'000), 500);
  EXPECT_DOUBLE_EQ(pool.range(0, 400'000), 500);
  EXPECT_DOUBLE_EQ(pool.range(5000, 0), 100);  // a clock going back: no wider
}

TEST(Pool, PairsNearestWithinRangeAndWidens) {
  PairingPool pool;
  pool.join("a", 1500, false, 0);
  pool.join("b", 1750, false, 1000);
  pool.join("c", 1580, false, 2000);
  pool.join("d", 1530, false, 3000);
  // a (the longest waiter) takes d, the nearest; b has nobody within 100 + 10/s yet.
  EXPECT_EQ(pool.pair(3000), (Pairs{{"a", "d"}}));
  EXPECT_EQ(pool.waiting(), 2u);
  EXPECT_TRUE(pool.pair(7000).empty());             // b waited 6 s: 160 < 170
  EXPECT_EQ(pool.pair(8000), (Pairs{{"b", "c"}}));  // 170 <= 170
  EXPECT_EQ(pool.waiting(), 0u);
}

TEST(Pool, ProvisionalPairsWithAnyone) {
  PairingPool pool;
  pool.join("new", 1500, true, 0);
  pool.join("strong", 2300, false, 0);
  EXPECT_EQ(pool.pair(0), (Pairs{{"new", "strong"}}));
}

TEST(Pool, JoinTwiceKeepsThePlaceAndLeaveRemoves) {
  PairingPool pool;
  pool.join("a", 1500, false, 0);
  pool.join("a", 1500, false, 30'000);  // still waiting since 0
  pool.join("b", 1900, false, 30'000);
  EXPECT_EQ(pool.waiting(), 2u);
  EXPECT_TRUE(pool.leave("b"));
  EXPECT_FALSE(pool.leave("b"));
  pool.join("c", 1900, false, 30'000);
  EXPECT_EQ(pool.pair(30'000), (Pairs{{"a", "c"}}));  // a's 30 s give 400
  EXPECT_TRUE(pool.pair(30'000).empty());
}

TEST(Pool, EveryoneWithinRangeIsPairedOnce) {
  PairingPool pool;
  for (int i = 0; i < 101; ++i) pool.join(std::to_string(i), 1500 + i, false, i);
  const Pairs pairs = pool.pair(1000);
  EXPECT_EQ(pairs.size(), 50u);
  std::set<std::string> seen;
  for (const auto& [x, y] : pairs) {
    EXPECT_TRUE(seen.insert(x).second) << x;
    EXPECT_TRUE(seen.insert(y).second) << y;
  }
  EXPECT_EQ(pool.waiting(), 1u);
}

}  // namespace
}  // namespace toguz::accounts
