#include "site/arbiter/url_fetch.h"

#include <curl/curl.h>

#include <mutex>

namespace toguz::site {

namespace {

// What one transfer has received so far, and whether it must stop.
struct Sink {
  std::string body;
  std::stop_token stop;
  bool too_big = false;
};

// libcurl's write callback: appends to the sink, or aborts past kMaxBytes.
size_t write_body(char* data, size_t size, size_t n, void* user) {
  auto* sink = static_cast<Sink*>(user);
  if (sink->body.size() + size * n > UrlFetch::kMaxBytes) {
    sink->too_big = true;
    return 0;  // aborts the transfer
  }
  sink->body.append(data, size * n);
  return size * n;
}

// libcurl's progress callback: aborts once the fetch is asked to stop (its owner goes).
int progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<Sink*>(user)->stop.stop_requested() ? 1 : 0;
}

// One GET of `url`: the body when the answer is 200, else why not.
UrlFetch::Result fetch(const std::string& url, std::stop_token stop) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  CURL* curl = curl_easy_init();
  if (!curl) return {"", "curl_easy_init failed"};
  Sink sink{"", stop};
  curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
  curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT, long(UrlFetch::kTimeoutS));
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT, 5L);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, write_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, progress);
  curl_easy_setopt(curl, CURLOPT_XFERINFODATA, &sink);
  const CURLcode rc = curl_easy_perform(curl);
  long status = 0;
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
  curl_easy_cleanup(curl);
  if (sink.too_big) return {"", "the answer is over 4 MiB"};
  if (rc != CURLE_OK) return {"", curl_easy_strerror(rc)};
  if (status != 200) return {"", "the server answered HTTP " + std::to_string(status)};
  return {std::move(sink.body), ""};
}

}  // namespace

bool followable_url(const std::string& url) {
  for (const char* scheme : {"http://", "https://"}) {
    const std::string s(scheme);
    if (url.size() > s.size() && url.compare(0, s.size(), s) == 0 && url[s.size()] != '/')
      return url.find_first_of(" \t\r\n") == std::string::npos;
  }
  return false;
}

void UrlFetch::start(const std::string& url) {
  if (started_) return;
  started_ = true;
  done_ = false;
  thread_ = std::jthread([this, url](std::stop_token stop) {
    result_ = fetch(url, stop);
    done_ = true;
  });
}

std::optional<UrlFetch::Result> UrlFetch::take() {
  if (!started_ || !done_) return std::nullopt;
  thread_.join();
  started_ = false;
  return std::move(result_);
}

}  // namespace toguz::site
