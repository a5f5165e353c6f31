package com.pets.orders;

import org.apache.ibatis.session.SqlSession;
import org.springframework.stereotype.Repository;

/** Runs statements by their ids, as code written before mapper interfaces does. */
@Repository
public class OrderArchive {
    private final SqlSession sqlSession;

    public OrderArchive(SqlSession sqlSession) {
        this.sqlSession = sqlSession;
    }

    public int archive(long id) {
        return sqlSession.update("legacy.archive", id);
    }

    public int copy(OrderParam param) {
        return sqlSession.insert("com.pets.orders.OrderMapper.insert", param);
    }
}
