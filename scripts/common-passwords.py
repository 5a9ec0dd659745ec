#!/usr/bin/env python3
# Writes src/accounts/common_passwords.inc (the path given, or that one from the repository root):
# the passwords people choose most, from the patterns every published list of leaked passwords
# shows: common words, names, places and teams with the usual digits and years, digit runs and
# repeats, keyboard walks (Latin and Cyrillic layouts), the usual phrases. Only those of 10
# characters or more are written: shorter ones fail the length rule anyway.
import sys
words = """password passw0rd p@ssword p@ssw0rd pa$$word pa55word p4ssw0rd passwort contraseña motdepasse
iloveyou princess sunshine football baseball basketball soccer hockey dragon monkey shadow master
michael jennifer jordan superman batman spiderman ironman starwars pokemon pikachu minecraft
fortnite roblox welcome letmein trustno1 freedom whatever computer internet secret charlie
thomas hunter ranger buster tigger summer winter spring autumn ginger cookie chocolate butterfly
flower angel babygirl lovely loveme iloveu mustang ferrari porsche mercedes corvette harley
yamaha killer hello hellokitty admin administrator root user login guest test changeme default
qwerty asdf zxcv matrix nirvana metallica slipknot liverpool chelsea arsenal manchester
barcelona realmadrid juventus ronaldo messi neymar samsung iphone apple google facebook
instagram youtube twitter microsoft windows linux ubuntu oracle cisco lenovo nokia motorola
family mother father sister brother daughter andrew daniel matthew joshua anthony william
robert david james john richard joseph christopher nicole jessica ashley amanda melissa
michelle stephanie elizabeth samantha natasha anastasia alexander alexandra sergey dmitry
andrey alexey vladimir nikita maxim ivan olga tatiana svetlana irina elena ekaterina marina
natalia aigerim nurlan askar arman aida aizhan aruzhan dias daniyar yerlan erlan bolat serik
asel aliya madina kairat timur ruslan azamat nursultan almaty astana bishkek osh shymkent
karaganda kazakhstan kyrgyzstan qazaqstan kazakh kyrgyz toguz togyz toguzkorgool togyzkumalak
korgool kumalak kazna parol privet lyubov solnce zvezda kotik zaika nastya sasha masha dasha
vova dima lena mama papa mamapapa spartak zenit dinamo cska america canada london paris berlin
moscow russia ukraine germany france england london newyork california texas florida
jesus jesuschrist christ blessed heaven angels god godisgood lord faith hope love lovers
loveyou iloveyou2 mylove myself myname mypassword
696969 magic rainbow unicorn purple orange yellow silver golden
diamond crystal blue green black white red pink tiger lion eagle falcon wolf panther
cheese pepper banana cherry apple123 strawberry peaches pumpkin coffee pizza hamburger
bailey maggie buddy molly lucky daisy sophie max charlie rocky bella luna oliver jack
snoopy garfield scooby mickey minnie donald pluto tweety kitty kitten puppy doggy
nintendo playstation xbox gamer gaming steam warcraft starcraft diablo zelda mario sonic
naruto sasuke goku vegeta dragonball onepiece bleach anime otaku
thunder lightning storm hurricane tornado blizzard phoenix dragonfly
access security private system server network office company business money dollar
million billion richman success winner champion legend hero ninja samurai warrior
soldier sniper hacker hacked cyber matrix neo morpheus trinity
qwerty123 abc abcd abcde abcdef abcdefg abcdefgh aaaaaa zzzzzz
monday tuesday friday sunday january february march april june july august september
october november december christmas halloween easter
chess checkers kalah mancala backgammon
student teacher school college university doctor nurse police fireman
""".split()
suffixes = ["", "1", "12", "123", "1234", "12345", "123456", "123456789", "!", "1!", "123!",
            "01", "007", "69", "777", "@123", "2000", "2020", "2024", "2025"]
out = set()
def add(p):
    if 10 <= len(p) <= 64:
        out.add(p.lower().replace(" ", ""))
for w in words:
    for s in suffixes:
        add(w + s)
    for pre in ["ilove", "my"]:
        add(pre + w)
    add(w + w)
# digit runs and repeats
for n in range(10, 17):
    for d in "0123456789":
        add(d * n)
    for unit in ["12", "123", "1234", "12345", "123456", "abc", "qwe", "asd", "zxc", "qwerty", "pass",
                 "love", "00", "01", "69", "007", "420", "777", "666", "987", "ab", "xo", "ha", "lol",
                 "hehe", "qaz", "1q2w", "a1", "q1", "z1"]:
        add((unit * 20)[:n])
seqs = "01234567890123456789"
for start in range(10):
    for n in range(10, 17):
        add((seqs[start:] + seqs)[:n])
        add((seqs[::-1][start:] + seqs[::-1])[:n])
for s in ["1234567890-=", "`1234567890-=", "1122334455", "112233445566", "1234554321", "123454321",
          "12344321", "1234512345", "1231231234", "5555555555", "9876543210", "0987654321",
          "1357924680", "2468013579", "1357913579", "1029384756", "0192837465", "1212121212",
          "1111122222", "1234512345", "0000011111", "147258369", "1472583690", "7894561230",
          "1593572468", "9517538246", "3692581470", "1478963250", "7418529630", "8520147963",
          "147852369", "1478523690", "123698745", "1236987450", "987456321", "9874563210"]:
    add(s)
# keyboard walks (Latin and Cyrillic layouts)
walks = ["qwertyuiop", "qwertyuiop[]", "asdfghjkl", "asdfghjkl;", "asdfghjkl;'", "zxcvbnm,./",
         "zxcvbnm", "1qaz2wsx3edc", "1qaz2wsx3edc4rfv", "1qaz2wsx", "qazwsxedc", "qazwsxedcrfv",
         "zaq12wsx", "zaq1zaq1", "zaq1xsw2", "zaq1xsw2cde3", "!qaz@wsx", "!qaz2wsx", "1q2w3e4r5t",
         "1q2w3e4r5t6y", "1q2w3e4r", "q1w2e3r4t5", "q1w2e3r4t5y6", "qwe123qwe123", "qweasdzxc",
         "qweasd", "zxcasdqwe", "mnbvcxz", "poiuytrewq", "lkjhgfdsa", "1qazxsw2", "2wsx3edc",
         "!@#$%^&*()", "!@#$%^&*", "!@#$%^", "1234qwer", "1234qwerasdf", "1234qwerasdfzxcv", "qwer1234",
         "asdf1234", "zxcv1234", "azerty", "azertyuiop", "qwertz", "qwertzuiop", "йцукен",
         "йцукенгшщз", "йцукенгшщзхъ", "фывапролджэ", "фывапролдж", "ячсмитьбю", "ячсмить",
         "1йцукен", "йфяцычувс", "qazxswedc", "plmoknijb", "qwertyasdfgh", "asdfqwer",
         "qwertyuiopasdfghjkl", "qwertyuiopasdfghjklzxcvbnm", "abcdefghij", "abcdefghijk",
         "abcdefghijkl", "abcdefghijklmnop", "abcdefghijklmnopqrstuvwxyz", "zyxwvutsrq",
         "abc1234567", "a1b2c3d4e5", "a1b2c3d4e5f6", "1a2b3c4d5e", "aa123456", "aaa123456",
         "abcabcabc", "password1234", "qwerty1234", "qwertyqwerty", "asdasdasd", "asdasdasdasd",
         "qweqweqwe", "zxczxczxc", "123qwe", "123qweasd", "123qweasdzxc", "123qweasdzxc!",
         "qwe123", "qwe123asd", "asd123", "zxc123", "1qa2ws3ed", "1qa2ws3ed4rf", "qaz123wsx",
         "qazwsx", "qazwsx123", "qazwsx1234", "q2w3e4r5", "xswzaq1", "cde3xsw2zaq1"]
for w in walks:
    for s in ["", "1", "12", "123", "1234", "!", "12345", "123456"]:
        add(w + s)
    add(w + w)
    add(w[::-1])
# names and words with years
for w in ["password", "qwerty", "welcome", "summer", "winter", "spring", "autumn", "admin", "love",
          "football", "monkey", "dragon", "master", "hello", "secret", "pass", "test", "baby",
          "angel", "toguz", "aigerim", "nurlan", "astana", "almaty", "bishkek", "parol", "kazakh",
          "kyrgyz", "family", "march", "april", "august", "october", "december", "january",
          "june", "july", "friday", "sunday", "chess", "soccer", "hockey"]:
    for y in range(1970, 2031):
        add(w + str(y))
# passphrases everybody uses
for p in ["correcthorsebatterystaple", "correct horse battery staple", "letmeinplease",
          "iloveyouforever", "iloveyousomuch", "iloveyoubaby", "ihateyou123", "changeme123",
          "changethis", "pleaseletmein", "opensesame", "open sesame", "thisismypassword",
          "this is my password", "mypassword123", "password password", "passwordpassword",
          "nopassword", "no password", "noneofyourbusiness", "whatever123", "letmein123",
          "welcome123", "welcome1234", "default123", "administrator1", "adminadmin",
          "adminadmin123", "rootroot", "rootroot123", "testtest", "testtest123", "test1234test",
          "guestguest", "useruser", "superuser", "superadmin", "sysadmin123", "1234567890qwerty",
          "qwerty1234567890", "1234567890abc", "abc1234567890", "asdfasdfasdf", "asdfasdf1234",
          "jklfdsa123", "trustno1trustno1", "iamthebest", "youarethebest", "thebest123",
          "nothingtolose", "neverforget", "neverforget911", "godisgood123", "jesusislord",
          "jesuslovesme", "blessed123", "happydays", "happylife", "happyday123", "goodluck123",
          "helloworld", "hello world", "helloworld123", "hellohello", "hello12345",
          "goodmorning", "goodnight123", "sweetheart", "sweetie123", "honeybunny", "loveyou123",
          "iloveyou1234", "iloveyou12345", "iloveyou123456", "kazakhstan2024", "togyzqumalaq",
          "togyzkorgool", "toguzkorgool1", "toguzkumalak"]:
    add(p)
lines = sorted(out)
path = sys.argv[1] if len(sys.argv) > 1 else "src/accounts/common_passwords.inc"
with open(path, "w", encoding="utf-8") as f:
    f.write("// The passwords people choose most that pass the length rule (10 characters or more), in\n"
            "// lower case without spaces, one a line: words, names, places and teams with the usual\n"
            "// digits and years after them, digit runs and repeats, keyboard walks on the Latin and\n"
            "// Cyrillic layouts, the usual phrases. Made by scripts/common-passwords.py from the patterns\n"
            "// the published lists show; password.cpp includes it (docs/accounts.md \"Passwords\").\n")
    f.write('R"(\n')
    for l in lines:
        assert ")\"" not in l and "\n" not in l
        f.write(l + "\n")
    f.write(')"\n')
