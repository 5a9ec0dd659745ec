#include "site/types.h"

#include <array>
#include <utility>

namespace toguz::site {

namespace {

template <class E, size_t N>
std::optional<E> parse_in(const std::array<std::pair<E, std::string_view>, N>& names,
                          std::string_view s) {
  for (const auto& [e, name] : names)
    if (name == s) return e;
  return std::nullopt;
}

template <class E, size_t N>
std::string_view name_in(const std::array<std::pair<E, std::string_view>, N>& names, E e) {
  for (const auto& [x, name] : names)
    if (x == e) return name;
  return "";
}

constexpr std::array<std::pair<Status, std::string_view>, 4> kStatus{{
    {Status::Waiting, "waiting"},
    {Status::Playing, "playing"},
    {Status::Over, "over"},
    {Status::Aborted, "aborted"},
}};

constexpr std::array<std::pair<Mode, std::string_view>, 4> kMode{{
    {Mode::Engine, "engine"},
    {Mode::Local, "local"},
    {Mode::Online, "online"},
    {Mode::Analysis, "analysis"},
}};

constexpr std::array<std::pair<Seat, std::string_view>, 4> kSeat{{
    {Seat::Spectator, "spectator"},
    {Seat::White, "white"},
    {Seat::Black, "black"},
    {Seat::Both, "both"},
}};

constexpr std::array<std::pair<Ending, std::string_view>, 11> kEnding{{
    {Ending::None, ""},
    {Ending::Resign, "resign"},
    {Ending::Abandon, "abandon"},
    {Ending::Timeout, "timeout"},
    {Ending::Agreement, "agreement"},
    {Ending::Aborted, "aborted"},
    {Ending::Expired, "expired"},
    {Ending::Decided, "decided"},
    {Ending::NoMove, "no-move"},
    {Ending::Repetition, "repetition"},
    {Ending::NoStart, "no-start"},
}};

constexpr std::array<std::pair<Result, std::string_view>, 4> kWinner{{
    {Result::None, ""},
    {Result::WhiteWins, "white"},
    {Result::BlackWins, "black"},
    {Result::Draw, "draw"},
}};

}  // namespace

std::string_view status_name(Status s) {
  return name_in(kStatus, s);
}
std::optional<Status> parse_status(std::string_view s) {
  return parse_in(kStatus, s);
}
std::string_view mode_name(Mode m) {
  return name_in(kMode, m);
}
std::optional<Mode> parse_mode(std::string_view s) {
  return parse_in(kMode, s);
}
std::string_view seat_name(Seat s) {
  return name_in(kSeat, s);
}
std::string_view ending_name(Ending e) {
  return name_in(kEnding, e);
}
std::optional<Ending> parse_ending(std::string_view s) {
  return parse_in(kEnding, s);
}
std::string_view side_word(Side s) {
  return seat_name(seat_of(s));
}
std::string_view winner_name(Result r) {
  return name_in(kWinner, r);
}
std::optional<Result> parse_winner(std::string_view s) {
  return parse_in(kWinner, s);
}

Ending ending_of(EndReason r) {
  switch (r) {
    case EndReason::Decided:
      return Ending::Decided;
    case EndReason::NoMove:
      return Ending::NoMove;
    case EndReason::Repetition:
      return Ending::Repetition;
    case EndReason::Resignation:
      return Ending::Resign;
    case EndReason::Time:
      return Ending::Timeout;
    case EndReason::Agreement:
      return Ending::Agreement;
    case EndReason::None:
      break;
  }
  return Ending::None;
}

EndReason recorded_reason(Ending e) {
  switch (e) {
    case Ending::Resign:
    case Ending::Abandon:
      return EndReason::Resignation;
    case Ending::Timeout:
      return EndReason::Time;
    case Ending::Agreement:
      return EndReason::Agreement;
    default:
      return EndReason::None;
  }
}

}  // namespace toguz::site
