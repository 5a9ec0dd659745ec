// Who the client is (src/server/client_address.h) and the password pool
// (src/server/hash_pool.h), without a server.
#include "server/client_address.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "server/hash_pool.h"

namespace toguz::server {
namespace {

boost::asio::ip::address addr(const std::string& s) {
  return boost::asio::ip::make_address(s);
}

TEST(ClientAddress, TrustedProxiesAddressesAndRanges) {
  const TrustedProxies p = TrustedProxies::parse({"127.0.0.1", " 10.1.0.0/16 ", "", "fd00::/8"});
  EXPECT_TRUE(p.contains(addr("127.0.0.1")));
  EXPECT_FALSE(p.contains(addr("127.0.0.2")));
  EXPECT_TRUE(p.contains(addr("10.1.255.7")));
  EXPECT_FALSE(p.contains(addr("10.2.0.1")));
  EXPECT_TRUE(p.contains(addr("fd12::1")));
  EXPECT_FALSE(p.contains(addr("fe80::1")));
  EXPECT_TRUE(p.contains(addr("::ffff:127.0.0.1")));  // IPv4-mapped: the IPv4 address
  EXPECT_TRUE(TrustedProxies::parse({"0.0.0.0/0"}).contains(addr("203.0.113.9")));
  EXPECT_TRUE(TrustedProxies::parse({"10.0.0.0/9"}).contains(addr("10.127.0.1")));
  EXPECT_FALSE(TrustedProxies::parse({"10.0.0.0/9"}).contains(addr("10.128.0.1")));
  EXPECT_TRUE(TrustedProxies::parse({}).empty());
  for (const char* bad : {"nginx", "10.0.0.1/33", "10.0.0.1/", "10.0.0.1/x", "::1/129", "1.2.3"})
    EXPECT_THROW(TrustedProxies::parse({bad}), std::invalid_argument) << bad;
}

TEST(ClientAddress, UntrustedPeerIsTheClient) {
  const TrustedProxies none;
  EXPECT_EQ(client_address(addr("198.51.100.7"), "203.0.113.1", "203.0.113.2", none),
            "198.51.100.7");
  const TrustedProxies proxy = TrustedProxies::parse({"127.0.0.1"});
  EXPECT_EQ(client_address(addr("198.51.100.7"), "203.0.113.1", "203.0.113.2", proxy),
            "198.51.100.7");
  EXPECT_EQ(client_address(addr("::ffff:198.51.100.7"), "", "", none), "198.51.100.7");
}

TEST(ClientAddress, RightMostUntrustedEntryOfATrustedPeer) {
  const TrustedProxies p = TrustedProxies::parse({"127.0.0.1", "10.0.0.0/8"});
  // What the client wrote stands left of what nginx appended: never reached.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "203.0.113.66, 198.51.100.7", "", p), "198.51.100.7");
  // A chain of trusted proxies is walked through.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7,10.0.0.5 , 10.0.0.6", "", p),
            "198.51.100.7");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "2001:db8::1", "", p), "2001:db8::1");
  // Every entry trusted: the left-most one.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "10.0.0.9, 10.0.0.5", "", p), "10.0.0.9");
  // X-Real-IP when no X-Forwarded-For came; neither: the peer.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", " 198.51.100.8 ", p), "198.51.100.8");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", "", p), "127.0.0.1");
  // A malformed entry where the walk stops: the peer, never the text.
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7, unknown", "", p), "127.0.0.1");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "", "not an address", p), "127.0.0.1");
  EXPECT_EQ(client_address(addr("127.0.0.1"), "198.51.100.7:4711", "", p), "127.0.0.1");
}

// A task that waits until released, so the test decides when the pool's thread is free.
struct Gate {
  std::mutex m;
  std::condition_variable cv;
  bool open = false, entered = false;
  void wait() {
    std::unique_lock lock(m);
    entered = true;
    cv.notify_all();
    cv.wait(lock, [&] { return open; });
  }
  void wait_entered() {
    std::unique_lock lock(m);
    cv.wait(lock, [&] { return entered; });
  }
  void release() {
    std::lock_guard lock(m);
    open = true;
    cv.notify_all();
  }
};

TEST(HashPool, LoginsGoFirstAndSignupsFillHalfTheQueue) {
  HashPool pool(1, 6);
  Gate gate;
  std::mutex m;
  std::vector<std::string> order;
  auto note = [&](std::string what) {
    return [&, what] {
      std::lock_guard lock(m);
      order.push_back(what);
    };
  };
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }, HashLane::Signup));
  gate.wait_entered();  // the one thread is busy: what follows waits
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(pool.submit(note("signup" + std::to_string(i)), HashLane::Signup)) << i;
  EXPECT_FALSE(pool.submit(note("signup3"), HashLane::Signup));  // half of 6 wait already
  EXPECT_TRUE(pool.submit(note("login0"), HashLane::Login));
  EXPECT_TRUE(pool.submit(note("login1"), HashLane::Login));
  EXPECT_TRUE(pool.submit(note("login2"), HashLane::Login));
  EXPECT_FALSE(pool.submit(note("login3"), HashLane::Login));  // 6 wait: full
  EXPECT_EQ(pool.queued(), 6u);
  gate.release();
  Gate done;
  while (!pool.submit([&] { done.wait(); }, HashLane::Signup)) std::this_thread::yield();
  done.wait_entered();
  done.release();
  std::lock_guard lock(m);
  EXPECT_EQ(order, (std::vector<std::string>{"login0", "login1", "login2", "signup0", "signup1",
                                             "signup2"}));
}

TEST(HashPool, ShutdownRefusesAndDrops) {
  HashPool pool(1, 4);
  Gate gate;
  bool ran = false;
  ASSERT_TRUE(pool.submit([&] { gate.wait(); }, HashLane::Login));
  gate.wait_entered();
  ASSERT_TRUE(pool.submit([&] { ran = true; }, HashLane::Login));
  pool.shutdown();
  EXPECT_FALSE(pool.submit([] {}, HashLane::Login));
  gate.release();
  EXPECT_EQ(pool.queued(), 0u);
  EXPECT_FALSE(ran);
}

}  // namespace
}  // namespace toguz::server
