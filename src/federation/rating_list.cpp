#include "federation/rating_list.h"

#include <charconv>

#include "rules/text.h"

namespace toguz::federation {

namespace {

enum class Column { Number, Name, Region, Title, Before, Change, After, Games, Id, Other };

struct ColumnName {
  Column column;
  const char* english;
  std::vector<std::string_view> names;  // lower case
};

const std::vector<ColumnName>& column_names() {
  static const std::vector<ColumnName> names = {
      {Column::Number, "number", {"number", "no", "no.", "#", "№", "n", "№ п/п", "место"}},
      {Column::Name,
       "name",
       {"name", "player", "фио", "имя", "фамилия, имя", "фамилия имя", "игрок", "аты-жөні"}},
      {Column::Region, "region", {"region", "регион", "область", "город", "аймақ"}},
      {Column::Title, "title", {"title", "звание", "разряд", "атағы"}},
      {Column::Before,
       "before",
       {"before", "rating before", "old", "рейтинг до", "было", "старый рейтинг",
        "прежний рейтинг"}},
      {Column::Change, "change", {"change", "изменение", "+/-", "±", "разница"}},
      {Column::After,
       "after",
       {"after", "rating after", "rating", "new", "рейтинг после", "стало", "рейтинг",
        "новый рейтинг"}},
      {Column::Games, "games", {"games", "партии", "игры", "количество партий"}},
      {Column::Id, "id", {"id", "fed id", "federation id", "код", "идентификатор"}},
  };
  return names;
}

// Lower case for ASCII and Cyrillic (А-Я, Ё..Џ), enough for the header's words.
std::string fold_header(std::string_view s) {
  std::u32string cps = utf8_decode(clean_display_text(s));
  for (char32_t& c : cps) {
    if (c >= U'A' && c <= U'Z')
      c += 32;
    else if (c >= 0x410 && c <= 0x42F)
      c += 0x20;
    else if (c >= 0x400 && c <= 0x40F)
      c += 0x50;
  }
  return utf8_encode(cps);
}

Column column_of(std::string_view header) {
  const std::string h = fold_header(header);
  for (const ColumnName& c : column_names())
    for (std::string_view n : c.names)
      if (h == n) return c.column;
  return Column::Other;
}

const char* english(Column c) {
  for (const ColumnName& n : column_names())
    if (n.column == c) return n.english;
  return "?";
}

std::optional<int> parse_number(std::string_view v, int line, Column c, bool allow_sign) {
  v = trim(v);
  if (v.empty() || v == "-" || v == "—" || v == "–") return std::nullopt;
  const std::string_view written = v;
  if (allow_sign && v.front() == '+') v.remove_prefix(1);
  int out = 0;
  auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (ec != std::errc() || p != v.data() + v.size() || (!allow_sign && out < 0) || out < -100000 ||
      out > 100000)
    throw InputError(line, english(c),
                     "expected a whole number, got '" + std::string(written) + "'");
  return out;
}

char separator_of(std::string_view header_line) {
  size_t commas = 0, semis = 0;
  for (char c : header_line) {
    commas += c == ',';
    semis += c == ';';
  }
  return semis > commas ? ';' : ',';
}

// One CSV line's field; `in_quotes` and the field are updated, true at a field's end.
struct CsvState {
  std::vector<std::vector<std::string>> rows;
  std::vector<int> lines;
  std::vector<std::string> row;
  std::string field;
  bool quoted = false;
  int line = 1;
  int row_line = 1;
  void end_field() {
    row.push_back(field);
    field.clear();
  }
  void end_row() {
    end_field();
    bool blank = row.size() == 1 && trim(row[0]).empty();
    if (!blank) {
      rows.push_back(std::move(row));
      lines.push_back(row_line);
    }
    row.clear();
    row_line = line + 1;
  }
};

void set_field(ListEntry& e, Column c, const std::string& raw, int line) {
  const std::string v = clean_display_text(raw, 200);
  switch (c) {
    case Column::Number:
      e.number = parse_number(v, line, c, false).value_or(0);
      break;
    case Column::Name:
      e.name = v;
      break;
    case Column::Region:
      e.region = v;
      break;
    case Column::Title:
      e.title = v;
      break;
    case Column::Before:
      e.before = parse_number(v, line, c, false);
      break;
    case Column::Change:
      e.change = parse_number(v, line, c, true).value_or(0);
      break;
    case Column::After:
      e.after = parse_number(v, line, c, false);
      break;
    case Column::Games:
      e.games = parse_number(v, line, c, false);
      break;
    case Column::Id:
      e.id = v;
      break;
    case Column::Other:
      break;
  }
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string number_text(const std::optional<int>& v) {
  return v ? std::to_string(*v) : "";
}

}  // namespace

std::vector<std::vector<std::string>> parse_csv(std::string_view text, char sep,
                                                std::vector<int>* lines) {
  CsvState st;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (st.quoted) {
      if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        st.field += '"';
        ++i;
      } else if (c == '"') {
        st.quoted = false;
      } else {
        if (c == '\n') ++st.line;
        st.field += c;
      }
    } else if (c == '"' && trim(st.field).empty()) {
      st.field.clear();
      st.quoted = true;
    } else if (c == sep) {
      st.end_field();
    } else if (c == '\n') {
      st.end_row();
      ++st.line;
    } else if (c != '\r') {
      st.field += c;
    }
  }
  if (st.quoted) throw InputError(st.row_line, "", "a quoted field is not closed");
  if (!st.field.empty() || !st.row.empty()) st.end_row();
  if (lines) *lines = st.lines;
  return st.rows;
}

std::vector<ListEntry> parse_list(std::string_view text) {
  if (text.substr(0, 3) == "\xEF\xBB\xBF") text.remove_prefix(3);
  std::string_view first = text.substr(0, text.find('\n'));
  std::vector<int> lines;
  auto rows = parse_csv(text, separator_of(first), &lines);
  if (rows.empty()) throw InputError(1, "", "the list is empty: expected a header line");
  std::vector<Column> cols;
  for (const std::string& h : rows[0]) {
    Column c = column_of(h);
    for (Column seen : cols)
      if (c != Column::Other && c == seen)
        throw InputError(lines[0], english(c), "the header names this column twice");
    cols.push_back(c);
  }
  for (Column need : {Column::Name, Column::After}) {
    bool found = false;
    for (Column c : cols) found = found || c == need;
    if (!found) throw InputError(lines[0], english(need), "the header has no such column");
  }
  std::vector<ListEntry> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    ListEntry e;
    e.line = lines[r];
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i >= rows[r].size()) {
        if (cols[i] == Column::Other) continue;
        throw InputError(e.line, english(cols[i]), "the line ends before this column");
      }
      set_field(e, cols[i], rows[r][i], e.line);
    }
    if (e.name.empty()) throw InputError(e.line, "name", "empty");
    out.push_back(std::move(e));
  }
  return out;
}

std::string list_csv(const std::vector<ListEntry>& list) {
  std::string out = "number,name,region,title,before,change,after,games,id\n";
  for (const ListEntry& e : list) {
    out += std::to_string(e.number) + "," + csv_field(e.name) + "," + csv_field(e.region) + "," +
           csv_field(e.title) + "," + number_text(e.before) + "," + (e.change > 0 ? "+" : "") +
           std::to_string(e.change) + "," + number_text(e.after) + "," + number_text(e.games) +
           "," + csv_field(e.id) + "\n";
  }
  return out;
}

}  // namespace toguz::federation
