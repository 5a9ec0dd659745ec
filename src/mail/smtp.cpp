#include "mail/smtp.h"

#include <curl/curl.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <mutex>
#include <random>

namespace toguz::mail {

namespace {

std::string base64(const std::string& in) {
  static const char* k = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const unsigned v = unsigned(uint8_t(in[i])) << 16 | unsigned(uint8_t(in[i + 1])) << 8 |
                       unsigned(uint8_t(in[i + 2]));
    for (int s = 18; s >= 0; s -= 6) out += k[(v >> s) & 63];
  }
  if (i < in.size()) {
    unsigned v = unsigned(uint8_t(in[i])) << 16;
    if (i + 1 < in.size()) v |= unsigned(uint8_t(in[i + 1])) << 8;
    out += k[(v >> 18) & 63];
    out += k[(v >> 12) & 63];
    out += i + 1 < in.size() ? k[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// A header's text: as it is when plain ASCII, else one RFC 2047 encoded word.
std::string header_text(const std::string& s) {
  for (char c : s)
    if (uint8_t(c) >= 0x80 || c == '\r' || c == '\n') return "=?UTF-8?B?" + base64(s) + "?=";
  return s;
}

// libcurl's global state, set up once before the first transfer (not thread-safe itself).
void curl_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct Upload {
  const std::string& data;
  size_t at = 0;
};

size_t read_upload(char* buf, size_t size, size_t n, void* user) {
  auto* up = static_cast<Upload*>(user);
  const size_t len = std::min(size * n, up->data.size() - up->at);
  std::memcpy(buf, up->data.data() + up->at, len);
  up->at += len;
  return len;
}

}  // namespace

bool valid_address(const std::string& a) {
  if (a.size() < 3 || a.size() > 254) return false;
  const size_t at = a.find('@');
  if (at == 0 || at == std::string::npos || at + 1 >= a.size() || a.find('@', at + 1) != a.npos)
    return false;
  for (char c : a)
    if (c <= ' ' || c >= 127 || std::strchr("<>\"(),;:[]\\", c)) return false;
  return a.find('.', at) != std::string::npos;
}

std::string format_message(const SmtpSettings& settings, const Mail& mail, long now_s) {
  const std::time_t t = now_s;
  std::tm tm{};
  gmtime_r(&t, &tm);
  static const char* days[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static const char* months[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                 "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  char date[64];
  std::snprintf(date, sizeof date, "%s, %02d %s %04d %02d:%02d:%02d +0000", days[tm.tm_wday % 7],
                tm.tm_mday, months[tm.tm_mon % 12], tm.tm_year + 1900, tm.tm_hour, tm.tm_min,
                tm.tm_sec);
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const size_t at = settings.from.find('@');
  const std::string domain = at == std::string::npos ? "localhost" : settings.from.substr(at + 1);
  std::string out = "From: " + settings.from + "\r\nTo: " + mail.to +
                    "\r\nSubject: " + header_text(mail.subject) + "\r\nDate: " + date +
                    "\r\nMessage-ID: <" + std::to_string(rng()) + "@" + domain +
                    ">\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=UTF-8\r\n"
                    "Content-Transfer-Encoding: 8bit\r\n\r\n";
  for (char c : mail.body) {
    if (c == '\r') continue;
    out += c == '\n' ? std::string("\r\n") : std::string(1, c);
  }
  if (out.size() < 2 || out.compare(out.size() - 2, 2, "\r\n") != 0) out += "\r\n";
  return out;
}

std::string send_mail(const SmtpSettings& settings, const Mail& mail) {
  if (!valid_address(mail.to)) return "not a plain address";
  curl_once();
  CURL* curl = curl_easy_init();
  if (!curl) return "curl_easy_init failed";
  const std::string message = format_message(settings, mail, long(std::time(nullptr)));
  Upload up{message};
  curl_slist* rcpt = curl_slist_append(nullptr, ("<" + mail.to + ">").c_str());
  const std::string from = "<" + settings.from + ">";
  curl_easy_setopt(curl, CURLOPT_URL, settings.url.c_str());
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(curl, CURLOPT_MAIL_RCPT, rcpt);
  curl_easy_setopt(curl, CURLOPT_READFUNCTION, read_upload);
  curl_easy_setopt(curl, CURLOPT_READDATA, &up);
  curl_easy_setopt(curl, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, long(settings.timeout_s));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, long(std::min(settings.timeout_s, 10)));
  curl_easy_setopt(curl, CURLOPT_USE_SSL,
                   settings.tls == Tls::Require ? long(CURLUSESSL_ALL)
                   : settings.tls == Tls::Try   ? long(CURLUSESSL_TRY)
                                                : long(CURLUSESSL_NONE));
  if (!settings.user.empty()) {
    curl_easy_setopt(curl, CURLOPT_USERNAME, settings.user.c_str());
    curl_easy_setopt(curl, CURLOPT_PASSWORD, settings.password.c_str());
  }
  const CURLcode rc = curl_easy_perform(curl);
  curl_slist_free_all(rcpt);
  curl_easy_cleanup(curl);
  return rc == CURLE_OK ? "" : curl_easy_strerror(rc);
}

}  // namespace toguz::mail
