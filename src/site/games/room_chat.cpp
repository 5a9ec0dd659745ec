// The game chat (room.h "the chat", docs/web-protocol.md "Chat"): who may post and read, the
// text's limits, the stored messages and their delivery, blocks kept. The chat is beside the
// game: nothing here touches the board, the clocks or the offers.
#include "net/log.h"
#include "rules/text.h"
#include "site/accounts/moderation_site.h"
#include "site/games/room.h"
#include "site/json_out.h"
#include "site/texts.h"

namespace toguz::site {

namespace {

constexpr size_t kMaxChatChars = 140;        // code points of one message
constexpr size_t kMaxChatMessages = 500;     // stored per game
constexpr size_t kMaxChatInputBytes = 2048;  // more than any 140 characters can take

}  // namespace

std::vector<store::ChatRow>& Room::chat_log() {
  if (!chat_) chat_ = services_.store.game_chat(id);
  return *chat_;
}

bool Room::may_read_chat(const RoomClient& c) const {
  if (mode != Mode::Online) return false;
  if (c.seat() == Seat::Spectator) return !rated;
  return !rated || c.chat_rated;
}

bool Room::chat_blocked(const RoomClient& c, int64_t author) const {
  return c.account() != 0 && author != c.account() && services_.blocks_between &&
         services_.blocks_between(c.account(), author);
}

Refused Room::chat_refusal(const RoomClient& from) const {
  if (mode != Mode::Online) return Refusal("chat_not_online");
  const std::optional<Side> side = side_of(from.seat());
  if (!side) return Refusal("spectator", {{"action", "chat"}});
  if (from.account() == 0 || players[index(*side)].user_id != from.account())
    return Refusal("chat_account");
  if (rated && !from.chat_rated) return Refusal("chat_off");
  return std::nullopt;
}

Refused Room::say(const RoomClient& from, std::string_view text) {
  if (Refused why = chat_refusal(from)) return why;
  const std::string n = std::to_string(kMaxChatChars);
  if (text.size() > kMaxChatInputBytes) return Refusal("chat_too_long", {{"n", n}});
  std::string clean = clean_display_text(text);
  if (clean.empty()) return Refusal("chat_empty");
  if (utf8_decode(clean).size() > kMaxChatChars) return Refusal("chat_too_long", {{"n", n}});
  if (chat_log().size() >= kMaxChatMessages)
    return Refusal("chat_full", {{"n", std::to_string(kMaxChatMessages)}});
  const Side side = *side_of(from.seat());
  store::ChatRow m;
  m.game_id = id;
  m.side = index(side);
  m.user_id = from.account();
  m.name = players[index(side)].name;
  m.text = std::move(clean);
  m.created_ms = now_ms();
  try {
    m.id = services_.store.add_chat(m);
  } catch (const store::StoreUnavailable& e) {
    return fault_refusal(e.fault, "chat");
  } catch (const std::exception& e) {
    log(net::LogLevel::Error, id, std::string("cannot store a chat message: ") + e.what());
    return Refusal("server_error", {{"detail", "chat"}});
  }
  chat_log().push_back(m);
  const std::string message =
      json::serialize(json::object{{"type", "chat"}, {"message", chat_json(m)}});
  for (RoomClient* c : clients_)
    if (may_read_chat(*c) && !chat_blocked(*c, m.user_id)) c->send(message);
  return std::nullopt;
}

void Room::send_chat_log(RoomClient& c) {
  if (!may_read_chat(c)) return;
  try {
    chat_log();
  } catch (const std::exception& e) {  // the game goes on; its chat comes with a later connection
    log(net::LogLevel::Error, id, std::string("cannot read the chat: ") + e.what());
    return;
  }
  json::array messages;
  for (const store::ChatRow& m : *chat_)
    if (!chat_blocked(c, m.user_id)) messages.push_back(chat_json(m));
  c.send(json::serialize(json::object{
      {"type", "chat_log"}, {"messages", std::move(messages)}, {"post", !chat_refusal(c)}}));
}

}  // namespace toguz::site
