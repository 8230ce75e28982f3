from django.urls import path

from equipment import views

app_name = "equipment"

urlpatterns = [
    path("characters/<int:pk>/items/add/", views.item_add, name="item-add"),
    path("characters/<int:pk>/items/<int:item_id>/", views.item_change, name="item-change"),
    path("characters/<int:pk>/items/<int:item_id>/remove/", views.item_remove,
         name="item-remove"),
    path("characters/<int:pk>/items/<int:item_id>/use/<slug:action>/", views.item_act,
         name="item-act"),
]
