"""Every path that writes players keeps ``Player.name_key`` right (issue 9, player lookup).

The lookup matches a prefix of the key and nothing else, so a path that wrote a name and
not its key would hide the player from every search. Expected keys are folded by hand:
lower case, accents to plain letters, no spaces, hyphens or apostrophes, the surname
then a comma then the forenames.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse

from ecfgrading.engine import Rate
from ecfgrading.lookups.identification import open_cases
from ecfgrading.lookups.search import search_players
from ecfgrading.registry.models import Club, ClubMembership, Player
from ecfgrading.services.lists.imports import import_grade_list
from ecfgrading.services.merge import merge_players
from ecfgrading.services.people import PlayerDetails
from ecfgrading.services.results.ingest import import_results
from ecfgrading.services.results.queue import resolve
from tests.services.results_text import results_file

pytestmark = pytest.mark.django_db

LIST_HEADER = (
    "Ref,Name,Sex,JrAge,Cat,Grade,Grade1,Games,RCat,RGrade,RGrade1,RGames,"
    "ClubNam1,ClubNam2,ClubNam3,ClubNam4,ClubNam5,ClubNam6,FIDECode,Nation\n"
)
GAMES = ["#PIN1=1#SCORE=10#PIN2=2#ROUND=1#GAME DATE=11/05/2013"]


def key_of(code: int) -> str:
    return Player.objects.get(code=code).name_key


def stored_key(**name: str) -> str:
    return Player.objects.get(**name).name_key


# Results imports: Player.objects.bulk_create in services/results/write.py -------------------


def test_players_created_by_a_results_import_get_their_keys() -> None:
    players = [
        "#PIN=1#NAME=Müller-Lüdenscheidt, Jürgen#CLUB NAME=Anytown",
        "#PIN=2#NAME=O'Brien, Seán Óg#CLUB NAME=Anytown",
    ]
    outcome = import_results(results_file(players, GAMES), filename="new.txt")

    assert outcome.accepted
    assert stored_key(surname="Müller-Lüdenscheidt") == "mullerludenscheidt,jurgen"
    assert stored_key(surname="O'Brien") == "obrien,seanog"


def test_a_player_created_from_the_identification_queue_gets_his_key() -> None:
    """services/results/queue.py creates him with save()."""
    for code, club in ((100001, "Anytown"), (100002, "Otherton")):
        twin = Player.objects.create(code=code, surname="Çelik", forenames="Ömer")
        ClubMembership.objects.create(
            player=twin, club=Club.objects.create(name=club), first_season=2012, last_season=2012
        )
    players = [
        "#PIN=1#NAME=Bloggs, Joe#CLUB NAME=Anytown",
        "#PIN=2#NAME=Çelik, Ömer#CLUB NAME=Newtown",  # which of the two? neither: queued
    ]
    import_results(results_file(players, GAMES), filename="queued.txt")
    (case,) = open_cases()

    new = resolve(case.id, create=True)

    assert Player.objects.get(pk=new.pk).name_key == "celik,omer"


# List imports: bulk_create and bulk_update in services/lists/imports.py ---------------------


def test_players_created_by_a_list_import_get_their_keys() -> None:
    csv = LIST_HEADER + '261619B,"Núñez, José María",M,,A,150,148,30,,,,,,,,,,,,ESP\n'
    result = import_grade_list(csv.encode(), list_id="2009-07", rates=(Rate.STANDARD,))

    assert result.imported
    assert key_of(261619) == "nunez,josemaria"


def test_a_name_changed_by_a_later_list_changes_the_key() -> None:
    first = LIST_HEADER + '261619B,"Nunez, Jose",M,,A,150,148,30,,,,,,,,,,,,ESP\n'
    import_grade_list(first.encode(), list_id="2009-07", rates=(Rate.STANDARD,))
    second = LIST_HEADER + '261619B,"Núñez-García, José",M,,A,152,150,30,,,,,,,,,,,,ESP\n'

    import_grade_list(second.encode(), list_id="2010-07", rates=(Rate.STANDARD,))

    assert key_of(261619) == "nunezgarcia,jose"


# Merges: services/merge.py saves the absorbed record and fills in the survivor's ---------


def test_a_merge_keeps_both_keys_and_hides_the_absorbed_record_from_lookups() -> None:
    kept = Player.objects.create(code=100001, surname="Lefèvre", forenames="Anaïs")
    gone = Player.objects.create(
        code=100002, surname="Lefevre", forenames="Anais", date_of_birth=date(1990, 1, 1)
    )

    merge_players(gone.ref, kept.ref)  # the survivor takes the date of birth (update_fields)

    assert (key_of(100001), key_of(100002)) == ("lefevre,anais", "lefevre,anais")
    # A lookup lists the survivor only; his code and the absorbed one both lead to him.
    found = search_players("lefevre", inactive=True)
    assert found.page.total == 0  # neither was ever graded
    assert search_players(gone.ref).code == kept.ref


# The admin: the change and add forms save() the player -------------------------------------


def _form(surname: str, forenames: str) -> dict[str, str]:
    return {
        "surname": surname,
        "forenames": forenames,
        "sex": "M",
        "nation": "ENG",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
    }


def test_a_name_corrected_in_the_admin_changes_the_key(admin_client) -> None:
    player = Player.objects.create(code=100001, surname="Dokovic", forenames="N")
    url = reverse("admin:registry_player_change", args=[player.pk])

    response = admin_client.post(url, _form("Đoković", "Novak"))

    assert response.status_code == 302, response.content.decode()
    assert key_of(100001) == "dokovic,novak"


def test_a_player_added_in_the_admin_gets_his_key(admin_client) -> None:
    response = admin_client.post(reverse("admin:registry_player_add"), _form("De la Cruz", "Ana"))

    assert response.status_code == 302, response.content.decode()
    assert stored_key(surname="De la Cruz") == "delacruz,ana"


# services/people.py: the unsaved record every creating path starts from --------------------


def test_a_record_made_from_normalised_details_gets_its_key_when_saved() -> None:
    details = PlayerDetails(surname="Smith-Jones", forenames="Mary Ann")

    details.new_player(100001).save()

    assert key_of(100001) == "smithjones,maryann"


# The model's own paths, which the services above rely on -----------------------------------


def test_saving_only_the_name_fields_saves_the_key_too() -> None:
    player = Player.objects.create(code=100001, surname="Smith", forenames="John")
    player.surname = "Smythe"

    player.save(update_fields=["surname"])

    assert key_of(100001) == "smythe,john"


def test_a_bulk_update_of_names_updates_the_keys() -> None:
    player = Player.objects.create(code=100001, surname="Smith", forenames="John")
    player.forenames = "Jöhn Paul"

    Player.objects.bulk_update([player], ["forenames"])

    assert key_of(100001) == "smith,johnpaul"


def test_a_queryset_update_of_names_is_refused() -> None:
    Player.objects.create(code=100001, surname="Smith", forenames="John")

    with pytest.raises(TypeError, match="name_key"):
        Player.objects.filter(code=100001).update(surname="Smythe")
    assert key_of(100001) == "smith,john"
