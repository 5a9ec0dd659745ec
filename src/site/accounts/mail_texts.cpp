#include "site/accounts/mail_texts.h"

#include <array>

namespace toguz::site {

namespace {

struct Text {
  const char* subject;
  const char* body;
};

// [kind][language]: en, ru, kk, ky.
constexpr const char* kLangs[] = {"en", "ru", "kk", "ky"};

const Text kTexts[4][4] = {
    {// Reset
     {"Toguz korgool: reset your password",
      "Someone (we hope you) asked to reset the password of the account {name}.\n"
      "To choose a new password, open this link within {minutes} minutes:\n{link}\n\n"
      "The link works once. If you did not ask for it, ignore this mail: your password stays "
      "as it is.\n"},
     {"Тогуз коргоол: сброс пароля",
      "Кто-то (надеемся, вы) попросил сбросить пароль учётной записи {name}.\n"
      "Чтобы задать новый пароль, откройте эту ссылку в течение {minutes} минут:\n{link}\n\n"
      "Ссылка действует один раз. Если вы этого не просили, не обращайте внимания на это "
      "письмо: ваш пароль останется прежним.\n"},
     {"Тоғызқұмалақ: құпиясөзді қалпына келтіру",
      "Біреу (сіз болсаңыз екен) {name} тіркелгісінің құпиясөзін қалпына келтіруді сұрады.\n"
      "Жаңа құпиясөз таңдау үшін осы сілтемені {minutes} минут ішінде ашыңыз:\n{link}\n\n"
      "Сілтеме бір рет қана жұмыс істейді. Сіз сұрамаған болсаңыз, бұл хатты елемеңіз: "
      "құпиясөзіңіз өзгермейді.\n"},
     {"Тогуз коргоол: сырсөздү калыбына келтирүү",
      "Кимдир бирөө (сиз болсоңуз экен) {name} аккаунтунун сырсөзүн калыбына келтирүүнү "
      "сурады.\nЖаңы сырсөз тандоо үчүн бул шилтемени {minutes} мүнөттүн ичинде ачыңыз:\n"
      "{link}\n\nШилтеме бир гана жолу иштейт. Сиз сурабаган болсоңуз, бул катты этибарга "
      "албаңыз: сырсөзүңүз өзгөрбөйт.\n"}},
    {// Verify
     {"Toguz korgool: confirm your e-mail address",
      "Confirm that this address belongs to the account {name} by opening this link:\n{link}\n\n"
      "If you did not give this address, ignore this mail.\n"},
     {"Тогуз коргоол: подтвердите адрес электронной почты",
      "Подтвердите, что этот адрес принадлежит учётной записи {name}, открыв ссылку:\n{link}\n\n"
      "Если вы не указывали этот адрес, не обращайте внимания на это письмо.\n"},
     {"Тоғызқұмалақ: электрондық пошта мекенжайын растаңыз",
      "Бұл мекенжай {name} тіркелгісіне тиесілі екенін мына сілтемені ашып растаңыз:\n{link}\n\n"
      "Бұл мекенжайды сіз бермеген болсаңыз, хатты елемеңіз.\n"},
     {"Тогуз коргоол: электрондук почтаңызды ырастаңыз",
      "Бул дарек {name} аккаунтуна таандык экенин бул шилтемени ачып ырастаңыз:\n{link}\n\n"
      "Бул даректи сиз бербеген болсоңуз, катты этибарга албаңыз.\n"}},
    {// YourTurn
     {"Toguz korgool: your move against {opponent}",
      "It is your move in your correspondence game against {opponent}:\n{link}\n\n"
      "You get these mails because you asked for them on your account page, where you can "
      "turn them off.\n"},
     {"Тогуз коргоол: ваш ход в партии с {opponent}",
      "Ваш ход в заочной партии с {opponent}:\n{link}\n\n"
      "Вы получаете эти письма, потому что включили их на странице учётной записи; там же их "
      "можно отключить.\n"},
     {"Тоғызқұмалақ: {opponent} ойыншысымен ойында сіздің жүрісіңіз",
      "{opponent} ойыншысымен сырттай ойында сіздің жүрісіңіз:\n{link}\n\n"
      "Бұл хаттарды тіркелгі бетінде қосқандықтан аласыз; сол жерде өшіруге болады.\n"},
     {"Тогуз коргоол: {opponent} менен оюнда сиздин жүрүшүңүз",
      "{opponent} менен сырттан оюнда сиздин жүрүшүңүз:\n{link}\n\n"
      "Бул каттарды аккаунт барагында күйгүзгөнүңүз үчүн аласыз; ал жерден өчүрсөңүз болот.\n"}},
    {// TournamentStart
     {"Toguz korgool: {tournament} has started",
      "The tournament {tournament} that you joined has started:\n{link}\n\n"
      "You get these mails because you asked for them on your account page, where you can "
      "turn them off.\n"},
     {"Тогуз коргоол: турнир {tournament} начался",
      "Турнир {tournament}, в который вы записались, начался:\n{link}\n\n"
      "Вы получаете эти письма, потому что включили их на странице учётной записи; там же их "
      "можно отключить.\n"},
     {"Тоғызқұмалақ: {tournament} турнирі басталды",
      "Сіз қатысатын {tournament} турнирі басталды:\n{link}\n\n"
      "Бұл хаттарды тіркелгі бетінде қосқандықтан аласыз; сол жерде өшіруге болады.\n"},
     {"Тогуз коргоол: {tournament} турнири башталды",
      "Сиз катышкан {tournament} турнири башталды:\n{link}\n\n"
      "Бул каттарды аккаунт барагында күйгүзгөнүңүз үчүн аласыз; ал жерден өчүрсөңүз болот.\n"}},
};

std::string fill(std::string s, const std::map<std::string, std::string>& params) {
  for (const auto& [k, v] : params) {
    const std::string key = "{" + k + "}";
    for (size_t at = s.find(key); at != std::string::npos; at = s.find(key, at + v.size()))
      s.replace(at, key.size(), v);
  }
  return s;
}

// A subject is one line whatever the names in it hold.
std::string one_line(std::string s) {
  for (char& c : s)
    if (c == '\r' || c == '\n') c = ' ';
  return s;
}

}  // namespace

std::string mail_lang(const std::string& lang) {
  for (const char* l : kLangs)
    if (lang == l) return lang;
  return "en";
}

mail::Mail mail_text(MailKind kind, const std::string& lang, const std::string& to,
                     const std::map<std::string, std::string>& params) {
  size_t li = 0;
  for (size_t i = 0; i < std::size(kLangs); ++i)
    if (lang == kLangs[i]) li = i;
  const Text& t = kTexts[int(kind)][li];
  return mail::Mail{to, one_line(fill(t.subject, params)), fill(t.body, params)};
}

}  // namespace toguz::site
