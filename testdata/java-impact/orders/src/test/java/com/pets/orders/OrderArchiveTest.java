package com.pets.orders;

class OrderArchiveTest {
    void archives(OrderArchive archive) {
        archive.archive(7);
    }
}
