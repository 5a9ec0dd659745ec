// Mail out over SMTP with libcurl (docs/operations.md "Mail"): one message to one address, the
// connection opened and closed per message. Plain text, UTF-8. Threading: any thread; the call
// blocks for up to the settings' timeout, so callers run it off their IO thread (outbox.h).
#pragma once

#include <string>

namespace toguz::mail {

enum class Tls { Try, Require, None };  // STARTTLS when offered, always, never

struct SmtpSettings {
  std::string url;             // smtp://host[:port] (STARTTLS per `tls`) or smtps://host[:port]
  std::string user, password;  // AUTH when user is set
  std::string from;            // the sender's address
  Tls tls = Tls::Try;
  int timeout_s = 20;  // the whole exchange, connection included
};

struct Mail {
  std::string to;       // one address, already checked (valid_address)
  std::string subject;  // one line
  std::string body;     // plain text; lines end in \n
};

// Whether `address` is a plain address that can go in a header unescaped: local@domain, at most
// 254 bytes, printable ASCII without spaces, angle brackets, quotes, commas or line breaks.
bool valid_address(const std::string& address);

// The message as sent: the headers (From, To, Subject encoded for UTF-8, Date, MIME), a blank
// line, the body with CRLF line ends.
std::string format_message(const SmtpSettings& settings, const Mail& mail, long now_s);

// Sends `mail`; "" when the server took it, else what went wrong (curl's words).
std::string send_mail(const SmtpSettings& settings, const Mail& mail);

}  // namespace toguz::mail
