#include "bus/queue.h"

#include <algorithm>
#include <memory>

namespace toguz::bus {

namespace {

using std::chrono::milliseconds;

const char* kJobField = "job";
const char* kResultField = "result";
constexpr long long kResultMaxLen = 10000;
constexpr long long kResultExpireMs = 3600 * 1000;

// The value of `field` in a stream entry's [field, value, ...] array; "" when absent.
std::string field_of(const Reply& fields, const std::string& field) {
  if (!fields.is_array()) return "";
  for (size_t i = 0; i + 1 < fields.elements.size(); i += 2)
    if (fields.elements[i].str == field) return fields.elements[i + 1].str;
  return "";
}

// [[id, [f, v, ...]], ...] as deliveries.
std::vector<Delivery> entries(const Reply& list) {
  std::vector<Delivery> out;
  if (!list.is_array()) return out;
  for (const Reply& e : list.elements) {
    if (!e.is_array() || e.elements.size() < 2) continue;
    out.push_back(Delivery{e.elements[0].str, field_of(e.elements[1], kJobField), 1});
  }
  return out;
}

// Touches a pending entry only while `consumer` holds it: XCLAIM to the same consumer with
// min-idle 0 and JUSTID resets its idle time without counting a delivery.
const char* kTouch = R"(
local p = redis.call('XPENDING', KEYS[1], ARGV[1], ARGV[3], ARGV[3], 1)
if #p == 0 or p[1][2] ~= ARGV[2] then return 0 end
redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')
return 1
)";

long long now_ms() {
  return std::chrono::duration_cast<milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

JobQueue::JobQueue(Connection& redis, QueueConfig config)
    : redis_(redis), config_(std::move(config)) {}

void JobQueue::create_group() {
  Reply r =
      redis_.command_reply({"XGROUP", "CREATE", config_.stream, config_.group, "0", "MKSTREAM"});
  if (r.type == Reply::Type::Error && r.str.rfind("BUSYGROUP", 0) != 0)
    throw ReplyError("redis: XGROUP CREATE " + config_.stream + " " + config_.group + ": " + r.str);
}

std::string JobQueue::submit(const std::string& job) {
  return redis_
      .command({"XADD", config_.stream, "MAXLEN", "~", std::to_string(config_.max_len), "*",
                kJobField, job})
      .text("XADD");
}

std::optional<Delivery> JobQueue::next(const std::string& consumer, milliseconds block) {
  const Reply r = redis_.command_blocking(
      {"XREADGROUP", "GROUP", config_.group, consumer, "COUNT", "1", "BLOCK",
       std::to_string(std::max<long long>(1, block.count())), "STREAMS", config_.stream, ">"},
      block);
  // [[stream, [[id, fields]]]] or nil on timeout
  if (!r.is_array() || r.elements.empty()) return std::nullopt;
  const Reply& stream = r.elements[0];
  if (!stream.is_array() || stream.elements.size() < 2) return std::nullopt;
  std::vector<Delivery> d = entries(stream.elements[1]);
  if (d.empty()) return std::nullopt;
  return d.front();
}

long long JobQueue::delivery_count(const std::string& id) {
  const Reply r = redis_.command({"XPENDING", config_.stream, config_.group, id, id, "1"});
  if (!r.is_array() || r.elements.empty() || r.elements[0].elements.size() < 4) return 1;
  return r.elements[0].elements[3].integer;
}

std::vector<Delivery> JobQueue::claim_idle(const std::string& consumer, milliseconds min_idle,
                                           int count) {
  std::vector<Delivery> out;
  std::string cursor = "0-0";
  // XAUTOCLAIM scans the pending list in pieces; a whole round ends at cursor 0-0.
  for (int round = 0; round < 100 && int(out.size()) < count; ++round) {
    const Reply r = redis_.command({"XAUTOCLAIM", config_.stream, config_.group, consumer,
                                    std::to_string(min_idle.count()), cursor, "COUNT",
                                    std::to_string(count - int(out.size()))});
    if (!r.is_array() || r.elements.size() < 2) break;
    cursor = r.elements[0].str;
    for (Delivery& d : entries(r.elements[1])) out.push_back(std::move(d));
    if (cursor == "0-0") break;
  }
  for (Delivery& d : out) d.deliveries = delivery_count(d.id);
  return out;
}

bool JobQueue::touch(const std::string& consumer, const std::string& id) {
  return redis_.command({"EVAL", kTouch, "1", config_.stream, config_.group, consumer, id})
             .number("touch") == 1;
}

void JobQueue::hand_back(const std::string& consumer, const std::string& id) {
  // an idle time of a day: older than any claim threshold
  redis_.command({"XCLAIM", config_.stream, config_.group, consumer, "0", id, "IDLE",
                  std::to_string(24LL * 3600 * 1000), "JUSTID"});
}

void JobQueue::ack(const std::string& id) {
  const std::vector<Reply> r =
      redis_.pipeline({{"XACK", config_.stream, config_.group, id}, {"XDEL", config_.stream, id}});
  for (const Reply& x : r)
    if (x.type == Reply::Type::Error) throw ReplyError("redis: XACK/XDEL " + id + ": " + x.str);
}

long long JobQueue::pending() {
  const Reply r = redis_.command({"XPENDING", config_.stream, config_.group});
  return r.is_array() && !r.elements.empty() ? r.elements[0].integer : 0;
}

long long JobQueue::waiting() {
  // acknowledged entries are deleted: the stream holds the pending ones and those not yet read
  const long long length = redis_.command({"XLEN", config_.stream}).number("XLEN");
  return std::max(0LL, length - pending());
}

void JobQueue::announce_worker(const std::string& name) {
  redis_.command({"ZADD", config_.stream + ":workers", std::to_string(now_ms()), name});
}

void JobQueue::withdraw_worker(const std::string& name) {
  redis_.command({"ZREM", config_.stream + ":workers", name});
}

long long JobQueue::live_workers(milliseconds window) {
  const std::string key = config_.stream + ":workers";
  const std::string since = std::to_string(now_ms() - window.count());
  const std::vector<Reply> r =
      redis_.pipeline({{"ZREMRANGEBYSCORE", key, "-inf", "(" + since}, {"ZCARD", key}});
  return r[1].number("ZCARD");
}

void post_result(Connection& redis, const std::string& stream, const std::string& result) {
  const std::vector<Reply> r = redis.pipeline(
      {{"XADD", stream, "MAXLEN", "~", std::to_string(kResultMaxLen), "*", kResultField, result},
       {"PEXPIRE", stream, std::to_string(kResultExpireMs)}});
  for (const Reply& x : r)
    if (x.type == Reply::Type::Error) throw ReplyError("redis: XADD " + stream + ": " + x.str);
}

std::vector<std::string> ResultReader::read(milliseconds block) {
  const Reply r = redis_.command_blocking(
      {"XREAD", "COUNT", "100", "BLOCK", std::to_string(std::max<long long>(1, block.count())),
       "STREAMS", stream_, last_id_},
      block);
  std::vector<std::string> out;
  if (!r.is_array() || r.elements.empty() || r.elements[0].elements.size() < 2) return out;
  for (const Reply& e : r.elements[0].elements[1].elements) {
    if (!e.is_array() || e.elements.size() < 2) continue;
    last_id_ = e.elements[0].str;
    out.push_back(field_of(e.elements[1], kResultField));
  }
  return out;
}

ResultListener::ResultListener(RedisUrl url, std::string stream, OnResult on_result,
                               OnError on_error)
    : url_(std::move(url)),
      stream_(std::move(stream)),
      on_result_(std::move(on_result)),
      on_error_(std::move(on_error)) {
  thread_ = std::thread([this] { run(); });
}

ResultListener::~ResultListener() {
  stop();
}

void ResultListener::stop() {
  stopping_ = true;
  if (thread_.joinable()) thread_.join();
}

void ResultListener::run() {
  std::unique_ptr<Connection> redis;
  std::string last_id = "0-0";  // kept across reconnections
  while (!stopping_) {
    try {
      if (!redis) redis = std::make_unique<Connection>(url_);
      ResultReader reader(*redis, stream_, last_id);
      for (const std::string& r : reader.read(milliseconds(200))) on_result_(r);
      last_id = reader.last_id();
    } catch (const BusError& e) {
      if (on_error_) on_error_(e.what());
      for (int i = 0; i < 5 && !stopping_; ++i) std::this_thread::sleep_for(milliseconds(100));
    }
  }
}

}  // namespace toguz::bus
