"""The back office's URLs for the members pages (included by backoffice/urls.py): a
direct member's own pages, the team's review of results from abroad, and the outbox."""

from django.urls import URLPattern, path

from ecfgrading.backoffice.views import mail, members

urlpatterns: list[URLPattern] = [
    path("member/", members.member_home, name="member_home"),
    path("member/abroad/", members.member_abroad, name="member_abroad"),
    path("abroad/", members.abroad_list, name="abroad_list"),
    path("abroad/<int:result_id>/", members.abroad_review, name="abroad_review"),
    path("abroad/<int:result_id>/accept/", members.abroad_accept, name="abroad_accept"),
    path("abroad/<int:result_id>/reject/", members.abroad_reject, name="abroad_reject"),
    path("mail/", mail.outbox, name="mail"),
    path("mail/preview/", mail.preview, name="mail_preview"),
    path("mail/send/", mail.send, name="mail_send"),
    path("mail/games/", mail.games, name="mail_games"),
]
