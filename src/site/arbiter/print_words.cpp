#include "site/arbiter/print_words.h"

namespace toguz::site {

namespace {

tournament::ReportWords words(const char* lang) {
  tournament::ReportWords w;
  w.lang = lang;
  if (w.lang == "ru") {
    w.tournament = "Турнир";
    w.round_of = "Тур {n} из {total}";
    w.standings_after = "Положение после тура {n} из {total}";
    w.crosstable = "Турнирная таблица";
    w.board = "Доска", w.white = "Белые", w.black = "Чёрные", w.pts = "Очки";
    w.result = "Результат", w.bye = "свободен", w.rank = "Место", w.name = "Имя";
    w.rating = "Рейтинг", w.no = "№", w.withdrawn = "выбыл";
    w.white_mark = "б", w.black_mark = "ч";
    w.tie_breaks = {"Бх", "Бх-1", "Берг", "Поб", "ЛВ", "Мед"};
    w.half_bye = "½ отдых", w.zero_bye = "0 отдых";
    w.team = "Команда", w.match = "Матч", w.first_named = "Первая команда";
    w.second_named = "Вторая команда", w.colour = "Цвет", w.boards = "Досок";
    w.games = "Партий", w.board_prizes = "Призы по доскам", w.board_n = "Доска {n}";
    w.colour_white = "Б", w.colour_black = "Ч";
    w.team_tie_breaks = {"КО", "ИО", "Берг", "ЛВ", "Бх"};
  } else if (w.lang == "kk") {
    w.tournament = "Турнир";
    w.round_of = "{total} турдың {n}-туры";
    w.standings_after = "{total} турдың {n}-турынан кейінгі орындар";
    w.crosstable = "Турнир кестесі";
    w.board = "Тақта", w.white = "Ақтар", w.black = "Қаралар", w.pts = "Ұпай";
    w.result = "Нәтиже", w.bye = "бос", w.rank = "Орын", w.name = "Аты";
    w.rating = "Рейтинг", w.no = "№", w.withdrawn = "шықты";
    w.white_mark = "а", w.black_mark = "қ";
    w.tie_breaks = {"Бх", "Бх-1", "Берг", "Жеңіс", "ЖК", "Мед"};
    w.half_bye = "½ демалыс", w.zero_bye = "0 демалыс";
    w.team = "Команда", w.match = "Матч", w.first_named = "Бірінші команда";
    w.second_named = "Екінші команда", w.colour = "Түс", w.boards = "Тақталар";
    w.games = "Ойындар", w.board_prizes = "Тақталар бойынша жүлделер", w.board_n = "{n}-тақта";
    w.colour_white = "А", w.colour_black = "Қ";
    w.team_tie_breaks = {"КҰ", "ЖҰ", "Берг", "ЖК", "Бх"};
  } else if (w.lang == "ky") {
    w.tournament = "Турнир";
    w.round_of = "{total} турдун {n}-туру";
    w.standings_after = "{total} турдун {n}-турунан кийинки орундар";
    w.crosstable = "Турнир таблицасы";
    w.board = "Такта", w.white = "Актар", w.black = "Каралар", w.pts = "Упай";
    w.result = "Натыйжа", w.bye = "бош", w.rank = "Орун", w.name = "Аты";
    w.rating = "Рейтинг", w.no = "№", w.withdrawn = "чыкты";
    w.white_mark = "а", w.black_mark = "к";
    w.tie_breaks = {"Бх", "Бх-1", "Берг", "Жеңиш", "ЖЖ", "Мед"};
    w.half_bye = "½ эс алуу", w.zero_bye = "0 эс алуу";
    w.team = "Команда", w.match = "Матч", w.first_named = "Биринчи команда";
    w.second_named = "Экинчи команда", w.colour = "Түс", w.boards = "Такталар";
    w.games = "Оюндар", w.board_prizes = "Такталар боюнча сыйлыктар", w.board_n = "{n}-такта";
    w.colour_white = "А", w.colour_black = "К";
    w.team_tie_breaks = {"КУ", "ЖУ", "Берг", "ЖЖ", "Бх"};
  }
  return w;
}

}  // namespace

const tournament::ReportWords& print_words(std::string_view lang) {
  static const tournament::ReportWords en = words("en"), ru = words("ru"), kk = words("kk"),
                                       ky = words("ky");
  if (lang == "ru") return ru;
  if (lang == "kk") return kk;
  if (lang == "ky") return ky;
  return en;
}

}  // namespace toguz::site
