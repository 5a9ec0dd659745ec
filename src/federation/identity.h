// Who is who across a season's events (docs/ratings-federation.md "Identity"): the keys that
// match a player by federation id or by name and region, the officer's file that settles
// names, and the report of names that may be one player.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace toguz::federation {

// A name as matched: lower case (Latin, Cyrillic and the Kazakh and Kyrgyz letters), the
// punctuation . , ; _ and every run of white space one space, no space at the ends, and in a
// word that holds a Cyrillic letter the Latin lookalikes (a c e i k m o p t x y b h) made
// Cyrillic. "Ауесбаева. Фарида" and "ауесбаева  фaрида" (a Latin a) have one key.
std::string name_key(std::string_view name);
// The key with the Kazakh and Kyrgyz letters folded to their nearest Russian ones
// (ә→а, ғ→г, қ→к, ң→н, ө→о, ұ→у, ү→у, һ→х, і→и, ё→е): a spelling that differs only there
// is a near duplicate, reported but never merged on its own.
std::string loose_key(std::string_view key);

// A player as the records and the list name them: the federation's id, else the name and
// region keys.
struct PlayerRef {
  std::string id;
  std::string name;    // as written (cleaned)
  std::string region;  // as written (cleaned)
  bool operator<(const PlayerRef& o) const;
};
// "id:ID" or "name_key|region_key": the key identity rules use.
std::string identity_key(const PlayerRef& p);

// The officer's settlements, one a line: "ALIAS = TARGET" (the alias is the target player)
// and "A != B" (two different players: their pair leaves the report). Each side is a name,
// "NAME @ REGION", or "id:ID". '#' starts a comment.
struct NameMap {
  std::map<std::string, PlayerRef> alias;                     // identity_key(alias) -> target
  std::vector<std::pair<std::string, std::string>> distinct;  // identity keys, sorted pair
};
// Throws InputError naming the line on a line that is neither form or has an empty side.
NameMap parse_name_map(std::string_view text);

// Why two names were reported together.
enum class Likeness { SameName, Spelling, WordOrder, Initial, Typo };
std::string_view likeness_text(Likeness l);

// One name of a group, with how often it occurs.
struct NameUse {
  PlayerRef player;
  int games = 0;
  std::vector<std::string> events;
};
// Names that may be one player: a group of two or more uses, and why each joined the group.
struct AmbiguousGroup {
  std::vector<NameUse> names;
  std::vector<Likeness> reasons;  // distinct, sorted
};
// Groups of the players whose names are alike: the same name with different regions or ids, the
// same name up to the Kazakh letters, the same words in another order, a surname with an initial
// and the same surname with a name of that initial, or one letter added, removed or changed in a
// name of 6 or more letters. Pairs the map settles as distinct are left out. Groups in order of
// their first name's key.
std::vector<AmbiguousGroup> ambiguous_names(const std::vector<NameUse>& uses, const NameMap& map);

}  // namespace toguz::federation
