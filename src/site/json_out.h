// JSON the server sends that more than one part of it builds: scores, errors (with the code a
// client translates, texts.h), HTTP answers with a JSON body.
#pragma once

#include <boost/beast/http.hpp>
#include <boost/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "engine_work/worker_pool.h"
#include "rules/position.h"
#include "search/engine.h"
#include "site/refusal.h"

namespace toguz::site {

namespace json = boost::json;
namespace http = boost::beast::http;

// The engine's answers on a game's socket: {"type":"analysis"} with `lines` searched in `pos`
// at game ply `ply`, and {"type":"hint"} with the best move of `r` (which has a line).
std::string analysis_message(const Position& pos, int ply, int depth,
                             const std::vector<search::Info>& lines, bool done);
std::string hint_message(const search::SearchResult& r, int ply, Side to_move);
// Why background engine work was refused (engine_busy: the queue is full), of request
// `action` when it is given.
Refusal busy_refusal(const engine_work::WorkerPool& pool, const std::string& action = "");
http::response<http::string_body> json_response(http::status status, const json::value& body,
                                                unsigned version = 11);
// The same with a body already serialized (the learning service's and the engine's answers).
http::response<http::string_body> json_text_response(http::status status, std::string body,
                                                     unsigned version = 11);
int64_t now_ms();                  // wall clock, ms since the epoch
std::string iso_time(int64_t ms);  // "2026-11-30T21:05:26Z" (UTC)

}  // namespace toguz::site
